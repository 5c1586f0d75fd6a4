/*
 * The one place that reads the environment for connection settings (HOSTING_API_URL,
 * HOSTING_TOKEN, HOSTING_<NAME>_TOKEN, …). What it returns is a copy: later changes to
 * process.env do not reach a connection already built.
 */

export type Environment = Readonly<Record<string, string | undefined>>;

/** The HOSTING_* variables of this process. */
export function readEnvironment(): Environment {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith("HOSTING_")) out[k] = v;
  return Object.freeze(out);
}

/*
 * Property values as the engine sends them to a native provider that accepts secrets: a secret
 * is `{ <sig>: <secret sig>, value }`. The handlers work on plain values; what was secret going
 * in, and what the schema marks secret (schema-secrets.ts), is wrapped again going out.
 */

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type Props = Record<string, unknown>;

export const isSecret = (v: unknown): v is { value: unknown } =>
  v !== null && typeof v === "object" && (v as Props)[SIG_KEY] === SECRET_SIG;

/** A value without secret wrappers, at any depth. */
export function plain(v: unknown): unknown {
  if (isSecret(v)) return plain(v.value);
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
}

/** The top-level keys whose value holds a secret anywhere. */
export function secretKeys(props: Props | undefined): string[] {
  const holds = (v: unknown): boolean =>
    isSecret(v) || (v !== null && typeof v === "object" && Object.values(v as Props).some(holds));
  return Object.keys(props ?? {}).filter((k) => holds((props ?? {})[k]));
}

export const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });

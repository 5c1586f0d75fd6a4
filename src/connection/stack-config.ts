/*
 * The stack config as the engine (provider host) or the program runtime hands it over. Values
 * may be text, numbers, booleans or objects (structured config such as `hosting:accounts`, as an
 * object or as JSON text); a secret leaf inside an object may still be in Pulumi's wire wrapper.
 */

export interface StackConfig {
  /** Every key given (all namespaces). */
  readonly keys: readonly string[];
  /**
   * Whether keys this package does not know may be the project's own: a project named
   * "hosting" keeps its settings in the same `hosting:` namespace.
   */
  readonly sharedNamespace: boolean;
  /** The value of `key`, secret wrappers removed; undefined when unset. */
  get(key: string): unknown;
}

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A value with Pulumi's secret wrappers removed, at any depth. */
function unwrap(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(unwrap);
  const o = v as Record<string, unknown>;
  if (o[SIG_KEY] === SECRET_SIG && "value" in o) return unwrap(o.value);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) out[k] = unwrap(x);
  return out;
}

/** Stack config from a plain map of keys to values. */
export function stackConfig(
  entries: Readonly<Record<string, unknown>>,
  project?: string,
): StackConfig {
  const map = new Map(Object.entries(entries));
  return {
    keys: [...map.keys()],
    sharedNamespace: project === "hosting",
    get: (key) => {
      const v = unwrap(map.get(key));
      return v === "" || v === null ? undefined : v;
    },
  };
}

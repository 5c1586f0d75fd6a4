import { parse } from "dotenv";
import { wireAssumptions } from "./endpoints";
import { HostingInputError } from "./errors";

/*
 * The `env` field of POST /apps is dotenv text (an assumption: see the README). We write it so
 * that npm `dotenv` and python-dotenv both read back exactly the original values, each `KEY=`
 * line in the first form that fits the value:
 *
 *   1. plain:   KEY=value     letters, digits and _ . / : @ + , - only
 *   2. single:  KEY='value'   literal in both (newlines kept as they are); the value has no
 *                             `'`, no carriage return, no `\\` pair and does not end in `\`
 *                             (python-dotenv turns `\\` and `\'` into `\` and `'` here)
 *   3. double:  KEY="value"   with newline and carriage return written `\n` and `\r`, which
 *                             both expand; the value has no `"` and no `\` (the two parsers
 *                             treat every other escape differently)
 *   4. bare:    KEY=value     one line without `#`, control characters or surrounding
 *                             spaces, not starting with a quote: read as is by both
 *
 * A value none of these fit cannot be represented, and neither can NUL (no environment holds
 * it) or `${NAME}` / `${NAME:-default}` (python-dotenv expands them by default).
 */

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLAIN = /^[A-Za-z0-9_./:@+,-]+$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what we look for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** python-dotenv's own pattern for what it expands (variables.py). */
const PY_EXPANSION = /\$\{[^}:]*(?::-[^}]*)?\}/;

/** The line value for a dotenv value, or why it cannot be written. */
function encode(value: string): { text: string } | { problem: string } {
  if (value.includes("\u0000")) return { problem: "contains a NUL character" };
  const expansion = PY_EXPANSION.exec(value);
  if (expansion) {
    return {
      problem: `contains ${JSON.stringify(expansion[0])}, which python-dotenv replaces with a variable`,
    };
  }
  if (PLAIN.test(value)) return { text: value };
  const notSingle = first(value, [
    [/'/, "'"],
    [/\r/, "a carriage return"],
    [/\\\\/, "a \\\\ pair"],
    [/\\$/, "a trailing \\"],
  ]);
  if (!notSingle) return { text: `'${value}'` };
  const notDouble = first(value, [
    [/"/, '"'],
    [/\\/, "\\"],
  ]);
  if (!notDouble) return { text: `"${value.replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"` };
  const notBare = first(value, [
    [/^['"`]/, "a quote at the start"],
    [/#/, "#"],
    [/[\n\r]/, "a line break"],
    [CONTROL, "a control character"],
    [/^\s|\s$/, "a space at the start or end"],
  ]);
  if (!notBare) return { text: value };
  const all = [...new Set([notSingle, notDouble, notBare])];
  return {
    problem:
      `contains ${all.slice(0, -1).join(", ")} and ${all[all.length - 1]} together, which no ` +
      "dotenv quoting carries so that npm dotenv and python-dotenv both read it back",
  };
}

const first = (value: string, rules: Array<[RegExp, string]>) =>
  rules.find(([re]) => re.test(value))?.[1];

/** Why this key/value cannot go into env, or undefined when it can. */
export function dotenvProblem(key: string, value: unknown): string | undefined {
  if (!KEY.test(key)) {
    return `env key ${JSON.stringify(key)} is not a valid variable name: use letters, digits and _ and do not start with a digit`;
  }
  if (key === "__proto__")
    return "env key __proto__ is refused: parsers read it into an object's prototype and lose it; rename the variable";
  if (typeof value !== "string") return `env value of ${key} must be a string`;
  const e = encode(value);
  return "problem" in e ? `env value of ${key} ${e.problem}; change the value` : undefined;
}

/** Dotenv text for env (sorted by key); throws naming the key of a value it cannot write. */
export function formatDotenv(env: Readonly<Record<string, string>>): string {
  const lines: string[] = [];
  for (const key of Object.keys(env).sort()) {
    const value = env[key];
    const problem = dotenvProblem(key, value);
    if (problem) throw new HostingInputError(`env.${key}`, problem);
    lines.push(`${key}=${(encode(value) as { text: string }).text}`);
  }
  const text = lines.join("\n");
  const bytes = Buffer.byteLength(text);
  if (bytes > wireAssumptions.maxEnvBytes) {
    throw new HostingInputError("env", envTooLarge(bytes));
  }
  return text;
}

/**
 * Checks env given as dotenv text by the rules the map form follows: each variable npm dotenv
 * reads from it must pass {@link dotenvProblem}. Returns the text unchanged.
 */
export function checkDotenvText(text: string): string {
  for (const [key, value] of Object.entries(parseDotenv(text))) {
    const problem = dotenvProblem(key, value);
    if (problem) throw new HostingInputError(`env.${key}`, problem);
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > wireAssumptions.maxEnvBytes) throw new HostingInputError("env", envTooLarge(bytes));
  return text;
}

const envTooLarge = (bytes: number) =>
  `env is ${bytes} bytes as dotenv text, over the limit of ${wireAssumptions.maxEnvBytes}; ` +
  "move large values into the app's source or a file it downloads";

/** Reads dotenv text with npm `dotenv` (the reference reader), into an object without prototype. */
export function parseDotenv(text: string): Record<string, string> {
  return Object.assign(Object.create(null) as Record<string, string>, parse(text));
}

import { HostingInputError } from "./errors/input-error";

/*
 * The `env` field of POST /apps is dotenv text (an assumption: see the README). One module
 * writes it and reads it, so the client and the emulator cannot drift apart.
 */

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLAIN = /^[A-Za-z0-9_./:@+,-]*$/;

/**
 * Environment variables as dotenv text (`KEY=value` lines, values quoted when needed), as the
 * client sends them on `POST /apps`; a HostingInputError names a key that is not a valid name.
 */
export function formatDotenv(env: Readonly<Record<string, string>>): string {
  const lines: string[] = [];
  for (const key of Object.keys(env).sort()) {
    const value = env[key];
    if (!KEY.test(key)) {
      throw new HostingInputError(
        `env.${key}`,
        `env key ${JSON.stringify(key)} is not a valid variable name: use letters, digits and _ and do not start with a digit`,
      );
    }
    if (typeof value !== "string") {
      throw new HostingInputError(`env.${key}`, `env value of ${key} must be a string`);
    }
    lines.push(`${key}=${PLAIN.test(value) ? value : quote(value)}`);
  }
  return lines.join("\n");
}

function quote(value: string): string {
  const escaped = value
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\$/g, "\\$");
  return `"${escaped}"`;
}

/** Reads what formatDotenv writes (plus comments, blank lines and single quotes). */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) throw new Error(`env line ${JSON.stringify(raw)} is not KEY=value`);
    const key = line.slice(0, eq).trim();
    if (!KEY.test(key)) throw new Error(`env key ${JSON.stringify(key)} is not a valid name`);
    out[key] = unquote(line.slice(eq + 1).trim());
  }
  return out;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  if (!(value.length >= 2 && value.startsWith('"') && value.endsWith('"'))) return value;
  const map: Record<string, string> = { n: "\n", r: "\r" };
  return value.slice(1, -1).replace(/\\(.)/g, (_m, c: string) => map[c] ?? c);
}

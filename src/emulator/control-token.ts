import { readFileSync, statSync } from "node:fs";
import { EmulatorControlTokenError } from "./errors";

/*
 * Where the emulator's control token comes from. A token in argv is visible to every local user
 * (ps, /proc/<pid>/cmdline), so the environment and a private file are offered as well.
 */

/** The environment variable the `hosting-emulator` bin reads its control token from. */
export const CONTROL_TOKEN_ENV = "HOSTING_EMULATOR_CONTROL_TOKEN";

/** Fails unless the token can travel as `Authorization: Bearer <token>`; never echoes it. */
export function assertControlToken(token: string, source: string): void {
  if (token.length === 0)
    throw new EmulatorControlTokenError(`${source} is empty; give a control token`);
  // A Bearer credential is one run of visible ASCII: a token with a space could never match.
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new EmulatorControlTokenError(
      `${source} holds spaces, control characters or non-ASCII characters; a control token ` +
        "is sent as `Authorization: Bearer <token>` and may hold visible ASCII only",
    );
  }
}

/**
 * Reads a control token file: one line, the final newline dropped. The file must not be readable
 * or writable by group or others (like an SSH key): `chmod 600 <file>`.
 */
export function readControlTokenFile(file: string): string {
  const source = `control token file ${file}`;
  let text: string;
  try {
    const mode = statSync(file).mode;
    if (process.platform !== "win32" && (mode & 0o077) !== 0) {
      throw new EmulatorControlTokenError(
        `${source} can be read or changed by other users (mode ${(mode & 0o777).toString(8)}); ` +
          `run: chmod 600 ${file}`,
      );
    }
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (err instanceof EmulatorControlTokenError) throw err;
    throw new EmulatorControlTokenError(`cannot read ${source}: ${(err as Error).message}`);
  }
  const token = text.replace(/\r?\n$/, "");
  assertControlToken(token, source);
  return token;
}

/**
 * The bin's control token: `--control-token-file`, else `--control-token`, else the environment
 * variable; undefined when none is given (loopback-only control API).
 */
export function resolveControlToken(
  flag: string | undefined,
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (flag !== undefined && file !== undefined) {
    throw new EmulatorControlTokenError(
      "give --control-token-file or --control-token, not both (prefer the file: argv is " +
        "visible to every local user)",
    );
  }
  if (file !== undefined) return readControlTokenFile(file);
  const [token, source] =
    flag !== undefined ? [flag, "--control-token"] : [env[CONTROL_TOKEN_ENV], CONTROL_TOKEN_ENV];
  if (token === undefined) return undefined;
  assertControlToken(token, source);
  return token;
}

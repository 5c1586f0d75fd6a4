/** The state file cannot be used; the message names the file and what is wrong with it. */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    why: string,
    options?: { cause?: unknown },
  ) {
    super(
      `emulator state file ${file} cannot be used: ${why}; fix or remove it (or pick another --state-file)`,
      options,
    );
  }
}

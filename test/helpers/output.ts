/**
 * What this process writes to stdout and stderr while a test runs, kept from the terminal: the
 * provider's progress lines and debug log, as Pulumi's provider host would pass them on.
 */
export function captureOutput() {
  const out: string[] = [];
  const err: string[] = [];
  const keep = (into: string[]) => (chunk: string | Uint8Array) => {
    into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    return true;
  };
  const spies = [
    jest.spyOn(process.stdout, "write").mockImplementation(keep(out)),
    jest.spyOn(process.stderr, "write").mockImplementation(keep(err)),
  ];
  return {
    stdout: () => out.join(""),
    stderr: () => err.join(""),
    restore: () => spies.forEach((s) => s.mockRestore()),
  };
}

import { inspect } from "node:util";
import { AuthenticationError, HostingClient, HostingError } from "../../src/api";
import { HostingInputError } from "../../src/api/errors";
import { useEmulator } from "../helpers/emulator";

/*
 * How an error of this package prints where Pulumi's program runtime reports it
 * (`util.inspect(err, { colors: true })`) and where a script logs it: once, on a few lines, with
 * the fields that are set and nothing of Pulumi's bookkeeping.
 */

const env = useEmulator({ setupDelayMs: 0 });

/** What Pulumi's runtime does to an error that rejects an apply used by two resources' inputs. */
function passThroughPulumi(err: Error & { promise?: unknown }): void {
  err.promise = Promise.reject(err);
  (err.promise as Promise<unknown>).catch(() => undefined);
  for (const k of ["runtime", "appId"]) {
    err.message = `error serializing property "${k}": ${err.message}`;
  }
}

describe("a HostingError under util.inspect", () => {
  test("a refused token: message, frames, code and fix; no undefined field, promise or name", async () => {
    const client = new HostingClient({
      apiUrl: env.emu.url,
      token: env.emu.issueToken(undefined, { expiresInSeconds: -10 }),
    });
    const err = await client.listApps().then(
      () => undefined,
      (e: unknown) => e as HostingError,
    );
    await client.close();
    expect(AuthenticationError.isInstance(err)).toBe(true);
    passThroughPulumi(err as HostingError);
    const text = inspect(err);
    expect(text.split("\n")[0]).toBe(`AuthenticationError: ${(err as HostingError).message}`);
    expect(text).toMatch(/^\s+at /m);
    expect(text).toContain("code: 'HOSTING_UNAUTHORIZED'");
    expect(text).toContain("option: 'token'");
    expect(text).toContain("status: 401");
    for (const noise of [
      "undefined",
      "Promise",
      "Circular",
      "error serializing property",
      "name:",
    ]) {
      expect(text).not.toContain(noise);
    }
  });

  test("Pulumi's serializer prefixes do not pile up on the message; our own changes stay", () => {
    const err = new HostingInputError("language", 'no runtime versions for language "cobol"');
    passThroughPulumi(err);
    expect(err.message).toBe('no runtime versions for language "cobol"');
    err.message = `${err.message}; see getRuntimeVersions()`;
    expect(err.message).toBe('no runtime versions for language "cobol"; see getRuntimeVersions()');
  });

  test("a frame in node_modules/@scope/file (Pulumi's source-mapped output.ts) prints as it is", () => {
    // Node 20.20's own error formatting loops over such a frame until its string overflows.
    const err = new HostingInputError("runtime", "boom");
    err.stack = `HostingInputError: boom\n    at f (/p/node_modules/@pulumi/output.ts:516:31)`;
    const text = inspect(err, { colors: true });
    expect(text).toContain("at f (/p/node_modules/@pulumi/output.ts:516:31)");
    expect(text).toContain("property:");
  });

  test("nested past the depth, it prints as one bracketed line", () => {
    const err = new HostingInputError("source", 'source "./ap" does not exist');
    expect(inspect({ a: { b: { c: err } } }, { depth: 1 })).toContain("[Object]");
    expect(inspect({ a: err }, { depth: -1 })).toBe("[Object]");
    expect(inspect([err], { depth: 0 })).toBe(
      '[ [HostingInputError: source "./ap" does not exist] ]',
    );
  });

  test("a cause prints as its message chain, never its own dump", () => {
    const root = new Error("socket hang up");
    const err = new HostingError("GET /apps failed: connection lost", "HOSTING_CONNECTION_LOST", {
      cause: new Error("fetch failed", { cause: root }),
    });
    const text = inspect(err);
    expect(text).toContain("cause: 'Error: fetch failed <- Error: socket hang up'");
    expect(text.match(/socket hang up/g)).toHaveLength(1);
  });
});

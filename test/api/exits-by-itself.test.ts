import { execFile } from "node:child_process";
import { join } from "node:path";
import { useEmulator } from "../helpers/emulator";

const ROOT = join(__dirname, "..", "..");
const env = useEmulator();

/*
 * A user's script or Pulumi program must not hang after its last call: the client's pooled
 * keep-alive sockets and its limiter / throttle timers may not hold the process open, even when
 * close() is never called and a 429 was waited out. Run on the built package in a fresh process,
 * which lists what still holds its event loop right after the last call's result (Node's
 * getActiveResourcesInfo: ref'd handles and timers only). The timeout only bounds a hang.
 */
test("a script using HostingClient without close() exits by itself after a throttled call", async () => {
  env.emu.setFaults({
    rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 1, times: 1 }],
  });
  const script = `
    const { HostingClient } = require("./dist/api");
    const client = new HostingClient({ apiUrl: process.env.URL, token: process.env.TOKEN });
    client.listApps().then((apps) => setImmediate(() => {
      // Less the stdio pipes (a module that looks at process.stderr opens its handle), which
      // never keep a process running.
      const holding = process.getActiveResourcesInfo().filter((r) => r !== "PipeWrap");
      console.log(JSON.stringify({ apps: apps.length, holding }));
    }));`;
  const result = await new Promise<{ code: number | null; signal: string | null; out: string }>(
    (resolve) => {
      const child = execFile(
        process.execPath,
        ["-e", script],
        {
          cwd: ROOT,
          timeout: 30_000,
          env: { ...process.env, URL: env.emu.url, TOKEN: env.emu.issueToken() },
        },
        (_err, stdout) => resolve({ code: child.exitCode, signal: child.signalCode, out: stdout }),
      );
    },
  );
  expect(result).toEqual({ code: 0, signal: null, out: '{"apps":0,"holding":[]}\n' });
  expect(env.emu.stats().faults).toMatchObject({ status: 1 });
}, 45_000);

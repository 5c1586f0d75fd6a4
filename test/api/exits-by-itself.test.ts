import { execFile } from "node:child_process";
import { join } from "node:path";
import { useEmulator } from "../helpers/emulator";

const ROOT = join(__dirname, "..", "..");
const env = useEmulator();

/*
 * A user's script or Pulumi program must not hang after its last call: the client's pooled
 * keep-alive sockets and its limiter / throttle timers may not hold the process open, even when
 * close() is never called and a 429 was waited out. Run on the built package in a fresh process;
 * the timeout only bounds a hang.
 */
test("a script using HostingClient without close() exits by itself after a throttled call", async () => {
  env.emu.setFaults({
    rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 1, times: 1 }],
  });
  const script = `
    const { HostingClient } = require("./dist/api");
    const client = new HostingClient({ apiUrl: process.env.URL, token: process.env.TOKEN });
    client.listApps().then((apps) => console.log("apps " + apps.length));`;
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ["-e", script],
      {
        cwd: ROOT,
        timeout: 30_000,
        env: { ...process.env, URL: env.emu.url, TOKEN: env.emu.issueToken() },
      },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    ),
  );
  expect(out.trim()).toBe("apps 0");
  expect(env.emu.stats().faults).toMatchObject({ status: 1 });
}, 45_000);

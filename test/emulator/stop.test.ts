import { execFile } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/*
 * Stopping the emulator must leave nothing behind that keeps a process (or a jest worker) alive,
 * even while a 60 s injected delay is pending for a request whose client gave up. Run on the
 * built package in a fresh process: it must exit by itself, long before the delay would end.
 */
test("after stop(), a process with a pending injected delay exits at once", async () => {
  const script = `
    const { startEmulator } = require("./dist/emulator");
    const { request } = require("undici");
    (async () => {
      const emu = await startEmulator({ seed: "stop" });
      emu.setFaults({ rules: [{ route: "GET /apps", latencyMs: 60000 }] });
      await request(emu.url + "/apps", {
        headers: { authorization: "Bearer " + emu.issueToken() },
        signal: AbortSignal.timeout(100),
      }).catch(() => undefined);
      await emu.stop();
      const stopped = Date.now();
      process.on("exit", () => console.log(Date.now() - stopped));
    })();`;
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["-e", script], { cwd: ROOT, timeout: 20_000 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    ),
  );
  expect(Number(out.trim())).toBeLessThan(5_000);
}, 30_000);

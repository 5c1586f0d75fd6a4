import { execFile } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/*
 * Stopping the emulator must leave nothing behind that keeps a process (or a jest worker) alive,
 * even while a 60 s injected delay is pending for a request whose client gave up. Run on the
 * built package in a fresh process, which lists what still holds its event loop a few turns
 * after stop() (Node's getActiveResourcesInfo: ref'd handles and timers only); the timeout only
 * bounds a hang.
 */
test("after stop(), a process with a pending injected delay exits at once", async () => {
  const script = `
    const { startEmulator } = require("./dist/emulator");
    const { request } = require("undici");
    (async () => {
      const emu = await startEmulator({ seed: "stop" });
      emu.setFaults({ rules: [{ route: "GET /apps", latencyMs: 60000 }] });
      const giveUp = new AbortController();
      const call = request(emu.url + "/apps", {
        headers: { authorization: "Bearer " + emu.issueToken() },
        signal: giveUp.signal,
      }).catch(() => undefined);
      // The client gives up once the request is in the delay (not after a fixed time).
      while (emu.stats().faults.latency === 0) await new Promise((r) => setTimeout(r, 5));
      giveUp.abort();
      await call;
      await emu.stop();
      // Sockets stop() closed go within a turn or two of the event loop (their close callbacks);
      // then nothing may hold it. Less the stdio pipes, which never keep a process running.
      let turns = 0;
      const look = () => {
        const holding = process.getActiveResourcesInfo().filter((r) => r !== "PipeWrap");
        if (holding.length === 0 || ++turns === 10) console.log(JSON.stringify({ holding }));
        else setImmediate(look);
      };
      setImmediate(look);
    })();`;
  const result = await new Promise<{ code: number | null; signal: string | null; out: string }>(
    (resolve) => {
      const child = execFile(
        process.execPath,
        ["-e", script],
        { cwd: ROOT, timeout: 20_000 },
        (_err, stdout) => resolve({ code: child.exitCode, signal: child.signalCode, out: stdout }),
      );
    },
  );
  expect(result).toEqual({ code: 0, signal: null, out: '{"holding":[]}\n' });
}, 30_000);

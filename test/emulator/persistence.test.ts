import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HostingClient } from "../../src/api";
import { exited, spawnEmulator } from "../helpers/spawn-emulator";
import { until } from "../helpers/until";
import { makeZip, manifest } from "../helpers/zip";

describe("state file", () => {
  test("kill -9 during a stream of writes: the state loads and every acknowledged app is there", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hosting-state-"));
    const stateFile = join(dir, "state.json");
    const children: Array<{ stop: () => Promise<void> }> = [];
    const clients: HostingClient[] = [];
    try {
      const first = await spawnEmulator([
        "--port",
        "0",
        "--seed",
        "kill",
        "--state-file",
        stateFile,
      ]);
      children.push(first);
      const zip = await makeZip({ "hosting.json": manifest({ name: "durable" }), "index.js": "" });
      const client = new HostingClient({ apiUrl: first.url, token: first.token, maxRetries: 0 });
      clients.push(client);
      const acked: string[] = [];
      let killed = false;
      const writer = async () => {
        while (!killed) {
          try {
            acked.push((await client.createApp({ archivePath: zip })).id);
          } catch {
            return;
          }
        }
      };
      const writers = [writer(), writer(), writer()];
      // Killed mid-stream, once a few writes are acknowledged (not after a fixed time).
      await until("six acknowledged creates", () => acked.length > 5);
      killed = true;
      first.child.kill("SIGKILL");
      await Promise.all(writers);
      await exited(first.child);
      expect(acked.length).toBeGreaterThan(5);

      JSON.parse(await readFile(stateFile, "utf8")); // whole, not torn
      const second = await spawnEmulator(["--port", "0", "--state-file", stateFile]);
      children.push(second);
      const again = new HostingClient({ apiUrl: second.url, token: first.token });
      clients.push(again);
      const ids = new Set((await again.listApps()).map((a) => a.app.id));
      expect(acked.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await Promise.all(children.map((c) => c.stop()));
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the hosting-emulator bin", () => {
  test("starts on --port 0, prints its URL and a token that works, and stops on SIGTERM", async () => {
    const { child, url, token, stop } = await spawnEmulator(["--port", "0", "--rate-limit", "100"]);
    const c = new HostingClient({ apiUrl: url, token });
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await c.listDatabases()).length).toBeGreaterThan(0);
    } finally {
      await c.close();
      await stop();
    }
    expect({ code: child.exitCode, signal: child.signalCode }).toEqual({ code: 0, signal: null });
  });
});

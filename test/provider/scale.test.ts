import { useInProcessProvider } from "../helpers/provider-env";

const env = useInProcessProvider({ setupDelayMs: 0 });

describe("refresh at scale", () => {
  test("reading 300 apps in parallel shares a handful of GET /apps", async () => {
    const res = await fetch(`${env.emu.url}/__emulator/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: 300 }),
    });
    const { ids } = (await res.json()) as { ids: string[] };
    const provider = (await env.inputs("App", {})).__provider;
    env.emu.resetStats();
    const reads = await Promise.all(
      ids.map((id) => env.host.read(id, env.urn("App", id), { __provider: provider, name: "x" })),
    );
    expect(reads.every((r, i) => r.id === ids[i])).toBe(true);
    expect(env.emu.stats().requests["GET /apps"]).toBeLessThanOrEqual(3);
  });
});

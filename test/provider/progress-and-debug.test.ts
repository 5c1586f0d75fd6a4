import { startEmulator, type RunningEmulator } from "../../src/emulator";
import { ProviderHost } from "../harness/provider-host";
import { appSource } from "../helpers/provider-env";
import { serializedProvider, urnOf } from "../helpers/serialize";

/*
 * What the user sees from Pulumi's dynamic-provider host: progress lines for long waits on its
 * stdout (the engine shows each line as an info message), and with HOSTING_LOG=debug one line
 * per request on its stderr, without the token.
 */

describe("progress and debug output of the provider host", () => {
  let emu: RunningEmulator;
  let host: ProviderHost;
  let token: string;

  beforeAll(async () => {
    emu = await startEmulator({ seed: "progress", setupDelayMs: 2200, domainActivationMs: 2200 });
    token = emu.issueToken();
    host = await ProviderHost.start({ HOSTING_LOG: "debug", HOSTING_PROGRESS_SECONDS: "1" });
    await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": token });
  });
  afterAll(async () => {
    await host?.stop();
    await emu?.stop();
  });

  async function create(kind: "App" | "CustomDomain", name: string, props: object) {
    const urn = urnOf(kind, name);
    const inputs = { __provider: await serializedProvider(kind), ...props };
    const checked = await host.check(urn, {}, inputs);
    return host.create(urn, checked.inputs);
  }

  test("a slow app setup and a slow domain activation report progress, then how they ended", async () => {
    const app = await create("App", "slow", { source: await appSource(), name: "slow" });
    await create("CustomDomain", "d", {
      appId: app.id,
      domain: "www.slow.pointed.test",
      waitForActive: true,
    });
    const out = host.stdout();
    expect(out).toMatch(
      new RegExp(
        `^hosting: app "slow" \\(${app.id}\\): setup: still waiting after \\d+ s \\(up to 300 s\\)$`,
        "m",
      ),
    );
    expect(out).toMatch(
      new RegExp(`^hosting: app "slow" \\(${app.id}\\): setup: done after \\d+ s$`, "m"),
    );
    expect(out).toMatch(
      new RegExp(
        `^hosting: custom domain www.slow.pointed.test on app ${app.id}: activation: still waiting after \\d+ s`,
        "m",
      ),
    );
    expect(out).toContain("activation: done after");
  });

  test("HOSTING_LOG=debug logs each request with method, path, status and duration, never the token", async () => {
    const log = host.stderr();
    expect(log).toMatch(/^hosting debug: POST \/apps -> ok in \d+ ms \(attempt 1\)$/m);
    expect(log).toMatch(/^hosting debug: GET \/apps -> ok in \d+ ms \(attempt 1\)$/m);
    expect(log).toMatch(/^hosting debug: POST \/apps\/[^/]+\/domains -> ok in \d+ ms/m);
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split(".")[2]);
  });

  test("a failed attempt and its retry are both logged, with the status", async () => {
    emu.setFaults({ rules: [{ route: "GET /apps", status: 503, retryAfterSeconds: 0, times: 1 }] });
    const before = host.stderr().length;
    await create("App", "again", { source: await appSource(), name: "again" });
    const log = host.stderr().slice(before);
    expect(log).toMatch(
      /GET \/apps -> 503 in \d+ ms \(attempt 1(, retry-after 0 ms)?\)\n.*GET \/apps: retry after attempt 1 \(transient 503\), waiting \d+ ms\n.*GET \/apps -> ok in \d+ ms \(attempt 2\)/,
    );
    emu.setFaults({});
  });
  test("a throttled request reports its wait as progress, and the retry in the debug log", async () => {
    emu.setFaults({ rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 2, times: 1 }] });
    const [out, err] = [host.stdout().length, host.stderr().length];
    await create("App", "throttled", { source: await appSource(), name: "throttled" });
    emu.setFaults({});
    expect(host.stdout().slice(out)).toMatch(
      /^hosting: GET \/apps: throttled by the service, waiting [12] s$/m,
    );
    expect(host.stderr().slice(err)).toMatch(
      /hosting debug: GET \/apps: retry after attempt 1 \(throttled 429\), waiting \d+ ms/,
    );
  });
});

describe("without HOSTING_LOG", () => {
  test("the provider host logs no requests", async () => {
    const emu = await startEmulator({ seed: "quiet", setupDelayMs: 0 });
    const host = await ProviderHost.start();
    try {
      await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.issueToken() });
      const urn = urnOf("App", "q");
      const inputs = {
        __provider: await serializedProvider("App"),
        source: await appSource(),
        name: "q",
      };
      await host.create(urn, (await host.check(urn, {}, inputs)).inputs);
      expect(host.stderr()).not.toContain("hosting debug:");
      expect(host.stdout()).toBe("");
    } finally {
      await host.stop();
      await emu.stop();
    }
  });
});

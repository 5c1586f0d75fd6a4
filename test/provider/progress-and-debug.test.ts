import { useEmulators } from "../helpers/emulator";
import { captureOutput } from "../helpers/output";
import { appSource, useInProcessProvider } from "../helpers/provider-env";
import { InProcessProvider } from "../helpers/in-process-provider";
import { serializedProvider, urnOf } from "../helpers/serialize";

const emulators = useEmulators();

/*
 * What the user sees from the provider: progress lines for long waits on stdout (the engine
 * shows each line of the host's output as an info message), and with HOSTING_LOG=debug one line
 * per request on stderr, without the token. The handlers run in-process on a virtual clock (the
 * waits are timed, not waited). That the lines reach Pulumi's provider host's stdout and stderr
 * is shown through the host in host-contract.test.ts.
 */

describe("progress and debug output of the provider", () => {
  const env = useInProcessProvider(
    { seed: "progress", setupDelayMs: 2200, domainActivationMs: 2200 },
    { listCacheMs: 0 },
  );
  let output: ReturnType<typeof captureOutput>;
  const saved = { ...process.env };
  beforeAll(async () => {
    Object.assign(process.env, { HOSTING_LOG: "debug", HOSTING_PROGRESS_SECONDS: "1" });
    output = captureOutput();
  });
  afterAll(() => {
    output.restore();
    process.env = saved;
  });

  async function create(
    kind: "App" | "CustomDomain",
    name: string,
    props: Record<string, unknown>,
  ) {
    const urn = env.urn(kind, name);
    const checked = await env.host.check(urn, {}, await env.inputs(kind, props));
    return env.host.create(urn, checked.inputs);
  }

  test("a slow app setup and a slow domain activation report progress, then how they ended", async () => {
    const app = await create("App", "slow", { source: await appSource(), name: "slow" });
    await create("CustomDomain", "d", {
      appId: app.id,
      domain: "www.slow.pointed.test",
      waitForActive: true,
    });
    const out = output.stdout();
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
    const before = output.stderr().length;
    const app = await create("App", "logged", { source: await appSource(), name: "logged" });
    await create("CustomDomain", "logged", { appId: app.id, domain: "www.logged.pointed.test" });
    const log = output.stderr().slice(before);
    expect(log).toMatch(/^hosting debug: POST \/apps -> ok in \d+ ms \(attempt 1\)$/m);
    expect(log).toMatch(/^hosting debug: GET \/apps -> ok in \d+ ms \(attempt 1\)$/m);
    expect(log).toMatch(/^hosting debug: POST \/apps\/[^/]+\/domains -> ok in \d+ ms/m);
    expect(log).not.toContain(env.token);
    expect(log).not.toContain(env.token.split(".")[2]);
  });

  test("a failed attempt and its retry are both logged, with the status", async () => {
    env.emu.setFaults({
      rules: [{ route: "GET /apps", status: 503, retryAfterSeconds: 0, times: 1 }],
    });
    const before = output.stderr().length;
    try {
      await create("App", "again", { source: await appSource(), name: "again" });
    } finally {
      env.emu.setFaults({});
    }
    const log = output.stderr().slice(before);
    expect(log).toMatch(
      /GET \/apps -> 503 in \d+ ms \(attempt 1(, retry-after 0 ms)?\)\n.*GET \/apps: retry after attempt 1 \(transient 503\), waiting \d+ ms\n.*GET \/apps -> ok in \d+ ms \(attempt 2\)/,
    );
  });

  test("a throttled request reports its wait as progress, and the retry in the debug log", async () => {
    env.emu.setFaults({
      rules: [{ route: "GET /apps", status: 429, retryAfterSeconds: 2, times: 1 }],
    });
    const [out, err] = [output.stdout().length, output.stderr().length];
    try {
      await create("App", "throttled", { source: await appSource(), name: "throttled" });
    } finally {
      env.emu.setFaults({});
    }
    expect(output.stdout().slice(out)).toMatch(
      /^hosting: GET \/apps: throttled by the service, waiting [12] s$/m,
    );
    expect(output.stderr().slice(err)).toMatch(
      /hosting debug: GET \/apps: retry after attempt 1 \(throttled 429\), waiting \d+ ms/,
    );
  });
});

describe("without HOSTING_LOG", () => {
  test("the provider logs no requests and prints only the id the service answered with", async () => {
    const emu = await emulators.start({ seed: "quiet", setupDelayMs: 0 });
    const host = await InProcessProvider.start({ HOSTING_LOG: "" });
    const output = captureOutput();
    try {
      await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.issueToken() });
      const urn = urnOf("App", "q");
      const inputs = {
        __provider: await serializedProvider("App"),
        source: await appSource(),
        name: "q",
      };
      await host.create(urn, (await host.check(urn, {}, inputs)).inputs);
      expect(output.stderr()).not.toContain("hosting debug:");
      // The one line an interrupted deployment needs (README: After an interrupted deployment).
      const [app] = emu.world.apps;
      expect(output.stdout()).toBe(`hosting: app "q": POST /apps answered with app ${app.id}\n`);
    } finally {
      output.restore();
      await host.stop();
      await emu.stop();
    }
  });
});

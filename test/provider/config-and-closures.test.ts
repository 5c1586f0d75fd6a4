import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import type { ResourceKind } from "../../src/provider/handlers";
import { appSource } from "../helpers/provider-env";
import { captureOutput } from "../helpers/output";
import { InProcessProvider } from "../helpers/in-process-provider";
import { TestClock } from "../helpers/test-clock";
import { serializedProvider, urnOf } from "../helpers/serialize";

const KINDS: ResourceKind[] = ["App", "CustomDomain", "AppWebAccess", "AppAnalytics"];

describe("the serialized __provider", () => {
  test.each(KINDS)(
    "%s: under 128 bytes, loads the handlers at call time, holds no token or URL",
    async (kind) => {
      const text = await serializedProvider(kind);
      // It travels in every request and answer of every resource: small is fast.
      expect(Buffer.byteLength(text)).toBeLessThan(128);
      expect(text).toContain('require("pulumi-hosting")');
      expect(text).toContain(JSON.stringify(kind));
      expect(text).not.toMatch(/https?:\/\/|Bearer|eyJ/);
    },
  );
});

/*
 * Configuration through the handlers called in-process as the host calls them, each test with
 * a fresh provider (a new deployment) and the environment the host would pass it; retry waits
 * on a virtual clock. That the host
 * passes its environment on at all is shown through the host in host-contract.test.ts.
 */
describe("configuration", () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  const saved = { ...process.env };
  beforeAll(async () => {
    emu = await emulators.start({ seed: "config", setupDelayMs: 0 });
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  async function createApp(host: InProcessProvider) {
    const urn = urnOf("App", "cfg");
    const inputs = {
      __provider: await serializedProvider("App"),
      source: await appSource(),
      name: "cfg",
    };
    const checked = await host.check(urn, {}, inputs);
    return host.create(urn, checked.inputs);
  }

  test("without stack config, HOSTING_API_URL and HOSTING_TOKEN are used", async () => {
    const host = await InProcessProvider.start(
      { HOSTING_API_URL: emu.url, HOSTING_TOKEN: emu.issueToken() },
      TestClock.virtual(),
    );
    try {
      await host.configure({});
      const created = await createApp(host);
      expect(emu.world.apps.some((a) => a.id === created.id)).toBe(true);
    } finally {
      await host.stop();
    }
  });

  test("stack config wins over the environment", async () => {
    const host = await InProcessProvider.start(
      {
        HOSTING_API_URL: "http://127.0.0.1:9",
        HOSTING_TOKEN: "a.b.c",
      },
      TestClock.virtual(),
    );
    try {
      await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.issueToken("bob") });
      const created = await createApp(host);
      expect(emu.world.apps.find((a) => a.id === created.id)?.user_id).toBe(emu.users[1].id);
    } finally {
      await host.stop();
    }
  });

  test("neither set: the error names both ways to set each value", async () => {
    const host = await InProcessProvider.start({}, TestClock.virtual());
    try {
      await host.configure({});
      await expect(createApp(host)).rejects.toThrow(
        /hosting:apiUrl is not set: set it with `pulumi config set hosting:apiUrl <url>` or the HOSTING_API_URL environment variable/,
      );
      await host.configure({ "hosting:apiUrl": emu.url });
    } finally {
      await host.stop();
    }
  });

  test("a token that is not a JWT is refused without being echoed", async () => {
    const host = await InProcessProvider.start({}, TestClock.virtual());
    try {
      await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": "super-secret-value" });
      const output = captureOutput();
      const err = (await createApp(host)
        .catch((e: unknown) => e)
        .finally(output.restore)) as Error;
      expect(err.message).toMatch(/does not look like a JWT/);
      expect(err.message + output.stdout() + output.stderr()).not.toContain("super-secret-value");
    } finally {
      await host.stop();
    }
  });

  test.each([
    ["stack config hosting:timeoutSeconds", { "hosting:timeoutSeconds": "0.4" }, {}],
    ["HOSTING_TIMEOUT_SECONDS", {}, { HOSTING_TIMEOUT_SECONDS: "0.4" }],
  ])("%s reaches the provider's client", async (_name, config, envVars) => {
    const host = await InProcessProvider.start(envVars, TestClock.virtual());
    emu.setFaults({ rules: [{ route: "DELETE /apps/{app_id}", latencyMs: 1500 }] });
    try {
      await host.configure({
        "hosting:apiUrl": emu.url,
        "hosting:token": emu.issueToken(),
        ...config,
      });
      const err = (await host
        .delete("00000000-0000-4000-8000-000000000000", urnOf("App", "slow"), {
          __provider: await serializedProvider("App"),
        })
        .catch((e: unknown) => e)) as Error;
      expect(err.message).toMatch(
        /DELETE \/apps\/[\w-]+: connected to the Hosting API at .*, but no reply within 0.4 s; raise hosting:timeoutSeconds if the service or the link is merely slow: set it with `pulumi config set hosting:timeoutSeconds <seconds>`/,
      );
      expect(err.message).not.toMatch(/timeoutMs/); // the client's option, not the stack's
    } finally {
      emu.setFaults({});
      await host.stop();
    }
  });

  test("a wire limit that is not a positive number names the setting and the fix", async () => {
    const host = await InProcessProvider.start({}, TestClock.virtual());
    try {
      await host.configure({
        "hosting:apiUrl": emu.url,
        "hosting:token": emu.issueToken(),
        "hosting:maxResponseMiB": "lots",
      });
      const err = (await createApp(host).catch((e: unknown) => e)) as Error;
      expect(err.message).toMatch(
        /hosting:maxResponseMiB is not a plain positive number: give a number of MiB .*`pulumi config set hosting:maxResponseMiB <number>`/,
      );
      // Described, not quoted: a value in the wrong key could be a token.
      expect(err.message).not.toContain("lots");
    } finally {
      await host.stop();
    }
  });
});

import { wireAssumptions } from "../../src/api/endpoints";
import { stableJson } from "../../src/provider/stable-json";
import { SETTING_MAX } from "../../src/provider/app/schema";
import { appSource, useInProcessProvider } from "../helpers/provider-env";

/*
 * check() as Pulumi's provider host calls it (in-process driver): each bad input fails naming the property and the fix,
 * in our words (never zod's defaults), and nothing is sent to the service.
 */

const env = useInProcessProvider({ setupDelayMs: 0 });
const ZOD_WORDING = /Invalid (key|input|type|string|element)|Expected [a-z]+, received/;

async function failures(kind: "App" | "CustomDomain" | "AppAnalytics", props: object) {
  const r = await env.host.check(env.urn(kind, "c"), {}, await env.inputs(kind, { ...props }));
  for (const f of r.failures) expect(f.reason).not.toMatch(ZOD_WORDING);
  return Object.fromEntries(r.failures.map((f) => [f.property, f.reason]));
}

describe("check refuses what the service or the client would refuse", () => {
  let source: string;
  beforeAll(async () => {
    source = await appSource();
  });
  beforeEach(() => env.emu.resetStats());
  afterEach(() => expect(env.emu.stats().total).toBe(0));

  test("control characters in App settings name the property and the position", async () => {
    const f = await failures("App", {
      source,
      name: "ctl",
      entrypoint: "index.js\n",
      description: "a\tb",
      customCommand: "npm start\u0000",
      runtime: { language: "node", version: "20\r" },
    });
    expect(f).toEqual({
      entrypoint: expect.stringMatching(
        /^entrypoint contains a control character \(U\+000a\) at position 8; remove it/,
      ),
      description: expect.stringMatching(/^description contains a control character \(U\+0009\)/),
      customCommand: expect.stringMatching(
        /^customCommand contains a control character \(U\+0000\)/,
      ),
      "runtime.version": expect.stringMatching(/^runtime.version contains a control character/),
    });
  });

  test("settings past their size limit, and an adoptId the client would refuse", async () => {
    const f = await failures("App", {
      source,
      name: "big",
      customCommand: "x".repeat(SETTING_MAX.customCommand + 1),
      adoptId: "../other",
    });
    expect(f.customCommand).toMatch(/customCommand must be at most 4096 characters/);
    expect(f.adoptId).toMatch(
      /^adoptId "..\/other" is not a valid identifier .*pass the id of an existing app/,
    );
  });

  test("env: keys, values no dotenv reader gets back, and the size limit, each named", async () => {
    const f = await failures("App", {
      source,
      name: "envs",
      env: { "1BAD": "x", TEMPLATE: "${HOME}/x", MIX: `'"#` },
    });
    expect(f).toEqual({
      "env.1BAD": expect.stringMatching(/env key "1BAD" is not a valid variable name/),
      "env.TEMPLATE": expect.stringMatching(
        /env value of TEMPLATE contains "\$\{HOME\}", which python-dotenv replaces/,
      ),
      "env.MIX": expect.stringMatching(/env value of MIX contains .* together/),
    });
    const big = await failures("App", {
      source,
      name: "envs",
      env: {
        A: "x".repeat(wireAssumptions.maxEnvBytes / 2),
        B: "y".repeat(wireAssumptions.maxEnvBytes / 2),
      },
    });
    expect(big).toEqual({
      env: expect.stringMatching(/^env is \d+ bytes as dotenv text, over the limit of 65536/),
    });
  });

  test("appId of the toggles and CustomDomain: the client's path rules", async () => {
    expect(await failures("AppAnalytics", { appId: "a/b", enabled: true })).toEqual({
      appId: expect.stringMatching(/^appId "a\/b" is not a valid identifier .*pass app.id/),
    });
    expect(await failures("CustomDomain", { appId: "..", domain: "www.example.com" })).toEqual({
      appId: expect.stringMatching(/pass app.id/),
    });
  });

  test("internationalised domains in punycode are accepted", async () => {
    expect(await failures("CustomDomain", { appId: "a", domain: "example.xn--p1ai" })).toEqual({});
    expect(await failures("CustomDomain", { appId: "a", domain: "xn--e1afmkfd.xn--p1ai" })).toEqual(
      {},
    );
  });
});

test("the longest settings check allows still make a manifest far below its size limit", () => {
  const widest = "\u65e5"; // 3 bytes in UTF-8
  const manifest = {
    name: "n".repeat(63),
    ram: 1_000_000,
    vcpu: 1000,
    entrypoint: widest.repeat(SETTING_MAX.entrypoint),
    subdomain: "s".repeat(63),
    description: widest.repeat(SETTING_MAX.description),
    custom_command: widest.repeat(SETTING_MAX.customCommand),
    runtime: {
      language: widest.repeat(SETTING_MAX.runtimePart),
      version: widest.repeat(SETTING_MAX.runtimePart),
    },
  };
  const bytes = Buffer.byteLength(`${stableJson(manifest, 2)}\n`);
  expect(bytes).toBeLessThan(wireAssumptions.maxManifestBytes / 2);
});

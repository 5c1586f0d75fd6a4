import * as pulumi from "@pulumi/pulumi";
import { providerText } from "../../src/provider/provider-text";

/*
 * Program-side behaviour under Pulumi's own mocks: which type tokens are registered, with which
 * inputs and which secret options. The mock monitor is Pulumi's; we only listen in on it.
 */

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  secretOutputs: string[];
  envIsSecret: boolean;
}
const registered: Registered[] = [];

pulumi.runtime.setMocks(
  {
    newResource: (args) => ({ id: `${args.name}-id`, state: { ...args.inputs, setup: true } }),
    call: (args) => args.inputs,
  },
  "hosting",
  "test",
  false,
);
type RegisterRequest = {
  getType(): string;
  getName(): string;
  getAdditionalsecretoutputsList(): string[];
  getObject(): { toJavaScript(): Record<string, unknown> };
};
const monitor = pulumi.runtime.getMonitor() as unknown as {
  registerResource(req: RegisterRequest, cb: unknown): unknown;
};
const original = monitor.registerResource.bind(monitor);
monitor.registerResource = (req, cb) => {
  const raw = req.getObject().toJavaScript();
  const env = raw.env as Record<string, unknown> | undefined;
  registered.push({
    type: req.getType(),
    name: req.getName(),
    inputs: raw,
    secretOutputs: req.getAdditionalsecretoutputsList(),
    envIsSecret: env?.["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270",
  });
  return original(req, cb);
};

// Loaded after the mocks are set, as a program would be.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hosting = require("../../src") as typeof import("../../src");

const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

describe("resources as a program registers them", () => {
  test("App: type token, inputs, env wrapped as a secret, additionalSecretOutputs", async () => {
    const app = new hosting.App("web", {
      source: "./app",
      name: "web",
      env: { API_KEY: "s3cret" },
      ram: 512,
      runtime: { language: "node", version: "20.18.1" },
    });
    expect(await value(app.id)).toBe("web-id");
    const r = registered.find((x) => x.name === "web")!;
    expect(r.type).toBe("pulumi-nodejs:dynamic/hosting:App");
    expect(r.inputs).toMatchObject({ source: "./app", name: "web", ram: 512 });
    expect(typeof r.inputs.__provider).toBe("string");
    expect(r.envIsSecret).toBe(true);
    expect(r.secretOutputs).toEqual(["env"]);
    expect(pulumi.Output.isInstance(app.sourceHash)).toBe(true);
  });

  test("the caller's own additionalSecretOutputs are kept", async () => {
    const app = new hosting.App(
      "other",
      { source: "./app", name: "o" },
      { additionalSecretOutputs: ["customDomain"] },
    );
    await value(app.id);
    expect(registered.find((x) => x.name === "other")!.secretOutputs.sort()).toEqual([
      "customDomain",
      "env",
    ]);
  });

  test("CustomDomain, AppWebAccess and AppAnalytics: type tokens and inputs wired from the app", async () => {
    const app = new hosting.App("site", { source: "./app", name: "site" });
    const domain = new hosting.CustomDomain("www", { appId: app.id, domain: "www.example.com" });
    const web = new hosting.AppWebAccess("web-access", { appId: app.id, enabled: false });
    const stats = new hosting.AppAnalytics("analytics", { appId: app.id, enabled: true });
    await Promise.all([value(domain.id), value(web.id), value(stats.id)]);
    const byName = (n: string) => registered.find((x) => x.name === n)!;
    expect(byName("www")).toMatchObject({
      type: "pulumi-nodejs:dynamic/hosting:CustomDomain",
      inputs: { appId: "site-id", domain: "www.example.com" },
    });
    expect(byName("web-access")).toMatchObject({
      type: "pulumi-nodejs:dynamic/hosting:AppWebAccess",
      inputs: { appId: "site-id", enabled: false },
    });
    expect(byName("analytics")).toMatchObject({
      type: "pulumi-nodejs:dynamic/hosting:AppAnalytics",
      inputs: { appId: "site-id", enabled: true },
    });
  });

  test("an env key __proto__ (which Pulumi's serializer would silently drop) is refused in the program", async () => {
    const env = JSON.parse('{"__proto__": "x", "OK": "1"}') as Record<string, string>;
    expect(() => new hosting.App("proto", { source: "./app", name: "proto", env })).toThrow(
      expect.objectContaining({
        property: "env.__proto__",
        message: expect.stringMatching(/__proto__ is refused.*rename the variable/),
      }),
    );
  });

  test("every App carries the same short __provider text, which names its kind", async () => {
    const a = new hosting.App("a1", { source: "./a", name: "a1" });
    const b = new hosting.App("b1", { source: "./b", name: "b1" });
    await Promise.all([value(a.id), value(b.id)]);
    const p = (n: string) => registered.find((x) => x.name === n)!.inputs.__provider;
    expect(p("a1")).toBe(p("b1"));
    expect(p("a1")).toBe(providerText("App"));
  });

  test("declaring Apps formats no stack trace through the program's formatter, and leaves it in place", async () => {
    // Pulumi's program runner installs source-map support as the formatter; its SDK took ~90
    // traces per App (one per promise of each registered property) and formatted each at once.
    const before = Error.prepareStackTrace;
    let formatted = 0;
    const counting = (err: Error, frames: NodeJS.CallSite[]): unknown => {
      formatted++;
      return before ? before(err, frames) : String(err);
    };
    Error.prepareStackTrace = counting;
    try {
      const apps = [1, 2, 3].map((i) => new hosting.App(`traced-${i}`, { source: "./app" }));
      expect(formatted).toBe(0);
      expect(Error.prepareStackTrace).toBe(counting);
      // A trace taken later is formatted by the program's formatter, as before.
      expect(new Error("later").stack).toBeDefined();
      expect(formatted).toBe(1);
      await Promise.all(apps.map((a) => value(a.id)));
    } finally {
      Error.prepareStackTrace = before;
    }
  });
});

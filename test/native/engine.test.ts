import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { join } from "node:path";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { cliMissing, cliSession, projectDir } from "../helpers/native-cli";

/*
 * The native plugin through the real Pulumi CLI (v3.274.1) against the emulator: a program whose
 * resources are `hosting:index:*` (as any language's SDK registers them) goes up, previews with
 * no change and is destroyed; a stack of the dynamic resources moves to the native ones by
 * `pulumi state delete` and `pulumi import`, replacing nothing.
 */

const run = promisify(execFile);

const APP = "require('http').createServer((q, s) => s.end('hi')).listen(8080);\n";

/** Native resources registered by token, as a generated SDK does. */
const nativeProgram = (appName: string, domain: string) => `
const pulumi = require("@pulumi/pulumi");
const t = (k) => "hosting:index:" + k;
const app = new pulumi.CustomResource(t("App"), "web", {
  source: "./app", name: ${JSON.stringify(appName)}, env: pulumi.secret({ K: "v" }), subdomain: undefined,
}, { additionalSecretOutputs: ["env"] });
const www = new pulumi.CustomResource(t("CustomDomain"), "www", {
  appId: app.id, domain: ${JSON.stringify(domain)}, status: undefined,
});
new pulumi.CustomResource(t("AppWebAccess"), "web-access", { appId: app.id, enabled: false });
const dbs = pulumi.output(pulumi.runtime.invoke(t("getDatabases"), { serviceType: "postgres" }));
exports.appId = app.id;
exports.subdomain = app.subdomain;
exports.env = app.env;
exports.domainStatus = www.status;
exports.postgres = dbs.apply((d) => d.items.length);
`;

let emu: RunningEmulator;
const emulators = useEmulators();
let token: string;
const cli = cliSession();

beforeAll(async () => {
  emu = await emulators.start({ seed: "native-engine", setupDelayMs: 0 });
  token = emu.issueToken();
});

async function newStack(dir: string, name: string) {
  await cli.pulumi(["stack", "init", name], dir);
  await cli.pulumi(["config", "set", "hosting:apiUrl", emu.url], dir);
  await cli.pulumi(["config", "set", "--secret", "hosting:token", token], dir);
}

const changing = () =>
  Object.entries(emu.stats().requests).filter(([route]) => !route.startsWith("GET "));

interface PreviewStep {
  op: string;
  urn: string;
  oldState?: { inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}
async function previewSteps(dir: string): Promise<PreviewStep[]> {
  const out = await cli.pulumi(["preview", "--json"], dir);
  return (JSON.parse(out.stdout) as { steps: PreviewStep[] }).steps.filter((s) =>
    s.urn.includes("hosting"),
  );
}

(cliMissing ? describe.skip : describe)(
  `the native plugin through the Pulumi CLI ${cliMissing ?? ""}`,
  () => {
    test("a program of native resources: up, a preview with no change, destroy", async () => {
      const dir = projectDir("native", {
        "index.js": nativeProgram("native-web", "www.native.pointed.test"),
        "app/index.js": APP,
      });
      await newStack(dir, "dev");
      // A first preview: the app's id is unknown to the domain and web access; nothing is sent
      // that changes anything.
      emu.resetStats();
      const first = await previewSteps(dir);
      expect(Object.fromEntries(first.map((s) => [s.urn.split("::").pop(), s.op]))).toEqual({
        web: "create",
        www: "create",
        "web-access": "create",
      });
      expect(changing()).toEqual([]);

      await cli.pulumi(["up", "--yes", "--skip-preview"], dir);
      const app = emu.world.apps.find((a) => a.name === "native-web")!;
      expect(app.domain?.hostname).toBe("www.native.pointed.test");
      expect(app.web_enabled).toBe(false);
      const outputs = JSON.parse(
        (await cli.pulumi(["stack", "output", "--json", "--show-secrets"], dir)).stdout,
      ) as Record<string, unknown>;
      expect(outputs).toMatchObject({ appId: app.id, env: { K: "v" }, domainStatus: "pending" });
      expect(outputs.postgres).toBeGreaterThan(0);

      // The state: env sealed as a secret, the token nowhere.
      const state = (await cli.pulumi(["stack", "export"], dir)).stdout;
      expect(state).not.toContain(token);
      const resources = (
        JSON.parse(state) as {
          deployment: { resources: Array<{ type: string; outputs: Record<string, unknown> }> };
        }
      ).deployment.resources;
      const env = resources.find((r) => r.type === "hosting:index:App")!.outputs.env;
      expect(env).toMatchObject({ ciphertext: expect.any(String) });

      emu.resetStats();
      await cli.pulumi(["preview", "--expect-no-changes"], dir);
      expect(changing()).toEqual([]);

      await cli.pulumi(["destroy", "--yes", "--skip-preview"], dir);
      expect(emu.world.apps.find((a) => a.name === "native-web")).toBeUndefined();
    }, 300_000);

    test("from the dynamic resources to the native plugin: state delete, import by id, nothing replaced", async () => {
      const dynamic = `
const hosting = require("pulumi-hosting");
const app = new hosting.App("web", { source: "./app", name: "moved-web" });
new hosting.CustomDomain("www", { appId: app.id, domain: "www.moved.pointed.test" });
new hosting.AppWebAccess("web-access", { appId: app.id, enabled: false });
new hosting.AppAnalytics("analytics", { appId: app.id, enabled: true });
`;
      const dir = projectDir("moving", { "index.js": dynamic, "app/index.js": APP });
      await newStack(dir, "dev");
      await cli.pulumi(["up", "--yes", "--skip-preview"], dir);
      const app = emu.world.apps.find((a) => a.name === "moved-web")!;

      // The documented steps (README "Moving a stack to the native plugin").
      const exported = (await cli.pulumi(["stack", "export"], dir)).stdout;
      writeFileSync(join(dir, "state.json"), exported);
      const script = join(__dirname, "..", "..", "scripts", "native-migration.js");
      const planned = await run(process.execPath, [script, join(dir, "state.json")]);
      const plan = JSON.parse(planned.stdout) as {
        remove: string[];
        import: { resources: Array<{ type: string; name: string; id: string }> };
      };
      expect(plan.import.resources.map((r) => `${r.type} ${r.id}`).sort()).toEqual(
        [
          `hosting:index:App ${app.id}`,
          `hosting:index:AppAnalytics ${app.id}`,
          `hosting:index:AppWebAccess ${app.id}`,
          `hosting:index:CustomDomain www.moved.pointed.test`,
        ].sort(),
      );
      emu.resetStats();
      for (const urn of plan.remove) await cli.pulumi(["state", "delete", urn, "--yes"], dir);
      writeFileSync(join(dir, "import.json"), JSON.stringify(plan.import));
      await cli.pulumi(["import", "--file", "import.json", "--yes", "--generate-code=false"], dir);
      // Nothing on the service changed: the objects stayed where they were.
      expect(changing()).toEqual([]);

      // The program, now with the native types (as a generated SDK registers them).
      writeFileSync(
        join(dir, "index.js"),
        `
const pulumi = require("@pulumi/pulumi");
const t = (k) => "hosting:index:" + k;
const app = new pulumi.CustomResource(t("App"), "web", { source: "./app", name: "moved-web",
  ram: ${app.ram}, vcpu: ${app.vcpu}, subdomain: ${JSON.stringify(app.subdomain)}${
    app.entrypoint ? `, entrypoint: ${JSON.stringify(app.entrypoint)}` : ""
  } });
new pulumi.CustomResource(t("CustomDomain"), "www", { appId: app.id, domain: "www.moved.pointed.test" });
new pulumi.CustomResource(t("AppWebAccess"), "web-access", { appId: app.id, enabled: false });
new pulumi.CustomResource(t("AppAnalytics"), "analytics", { appId: app.id, enabled: true });
`,
      );
      const steps = await previewSteps(dir);
      const ops = Object.fromEntries(steps.map((s) => [s.urn.split("::").pop(), s.op]));
      // The app records its source hash in place (the service cannot show an app's source);
      // web access, which the API does not report, is set again; nothing is replaced.
      expect(ops).toEqual({
        web: "update",
        www: "same",
        "web-access": "update",
        analytics: "same",
      });
      const web = steps.find((s) => s.urn.endsWith("::web"))!;
      const [was, next] = [web.oldState?.inputs ?? {}, web.newState?.inputs ?? {}];
      const differ = [...new Set([...Object.keys(was), ...Object.keys(next)])].filter(
        (k) => JSON.stringify(was[k]) !== JSON.stringify(next[k]),
      );
      expect(differ.sort()).toEqual(["source", "sourceHash"]);

      await cli.pulumi(["up", "--yes", "--skip-preview"], dir);
      expect(emu.world.apps.find((a) => a.name === "moved-web")?.id).toBe(app.id);
      await cli.pulumi(["preview", "--expect-no-changes"], dir);
      expect(readFileSync(join(dir, "Pulumi.yaml"), "utf8")).toContain("runtime: nodejs");

      await cli.pulumi(["destroy", "--yes", "--skip-preview"], dir);
      expect(emu.world.apps.find((a) => a.name === "moved-web")).toBeUndefined();
    }, 300_000);
  },
);

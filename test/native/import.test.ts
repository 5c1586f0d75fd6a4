import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HostingClient } from "../../src/api";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { tokenFormsIn } from "../helpers/token-forms";
import { makeZip, manifest } from "../helpers/zip";
import { cliMissing, cliSession, yamlMissing, type Run } from "../helpers/native-cli";

/*
 * `pulumi import` of the native plugin's resources through the real CLI, in a Pulumi YAML
 * project (YAML's language host writes the code `--out` asks for): an id nothing has, or that
 * another account's object has, fails with Pulumi's "does not exist" and says where it was
 * looked for; an app made outside the stack is imported without a validation warning, with a
 * placeholder for its source that the check names until the program sets it.
 */

const HEADER = "name: imports\nruntime: yaml\n";
const PLACEHOLDER = "<the folder or .zip of this app's code>";

let emu: RunningEmulator;
const emulators = useEmulators();
let alice: string;
let bob: string;
/** Apps made outside any stack: alice's (the stack's account) and bob's. */
const made = { alice: "", bob: "" };

async function madeOutside(token: string, name: string, domain: string): Promise<string> {
  const client = new HostingClient({ apiUrl: emu.url, token });
  try {
    const zip = await makeZip({ "hosting.json": manifest({ name }), "index.js": "" });
    const app = await client.createApp({ archivePath: zip });
    await client.attachCustomDomain(app.id, domain);
    return app.id;
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  emu = await emulators.start({ seed: "native-import", setupDelayMs: 0 });
  alice = emu.issueToken();
  bob = emu.issueToken(emu.users[1].id);
  made.alice = await madeOutside(alice, "outside", "www.outside.pointed.test");
  made.bob = await madeOutside(bob, "bobs", "www.bob.pointed.test");
});

const said = (r: Run) => `${r.stdout}\n${r.stderr}`;
const changing = () =>
  Object.entries(emu.stats().requests).filter(([route]) => !route.startsWith("GET "));

async function yamlStack() {
  const cli = cliSession();
  const dir = mkdtempSync(join(tmpdir(), "hosting-import-"));
  mkdirSync(join(dir, "app"));
  writeFileSync(join(dir, "app", "index.js"), "require('http').createServer().listen(8080);\n");
  writeFileSync(join(dir, "Pulumi.yaml"), HEADER);
  await cli.pulumi(["stack", "init", "dev"], dir);
  await cli.pulumi(["config", "set", "hosting:apiUrl", emu.url], dir);
  await cli.pulumi(["config", "set", "--secret", "hosting:token", alice], dir);
  const run = (args: string[], allowFail = false) => cli.pulumi(args, dir, allowFail);
  const resources = async () =>
    (
      JSON.parse((await run(["stack", "export"])).stdout) as {
        deployment: { resources?: Array<{ type: string; id?: string }> };
      }
    ).deployment.resources?.filter((r) => r.type.startsWith("hosting:")) ?? [];
  return { dir, run, resources };
}

const missing = cliMissing ?? yamlMissing;

(missing ? describe.skip : describe)(`pulumi import of the native plugin ${missing ?? ""}`, () => {
  test("an id nothing has, or another account's object: Pulumi's \"does not exist\", the id and the API named, nothing in state", async () => {
    const { run, resources } = await yamlStack();
    const api = `${emu.url}/`;
    const cases = [
      ["App", "no-such-app", `no app "no-such-app" under this provider's account (API ${api})`],
      ["App", made.bob, `no app "${made.bob}" under this provider's account (API ${api})`],
      [
        "CustomDomain",
        "www.nowhere.pointed.test",
        `no custom domain (by hostname) "www.nowhere.pointed.test" under this provider's account (API ${api})`,
      ],
      [
        "CustomDomain",
        "www.bob.pointed.test",
        `no custom domain (by hostname) "www.bob.pointed.test" under this provider's account (API ${api})`,
      ],
      ["AppAnalytics", made.bob, `no app "${made.bob}" under this provider's account (API ${api})`],
      [
        "AppWebAccess",
        "no-such-app",
        `no app "no-such-app" under this provider's account (API ${api})`,
      ],
      ["VmStart", "vm-1", "an action cannot be imported: it leaves nothing on the service to hold"],
    ];
    emu.resetStats();
    for (const [kind, id, words] of cases) {
      const args = ["import", `hosting:index:${kind}`, "it", id, "--yes", "--generate-code=false"];
      const r = await run(args, true);
      expect([kind, id, r.code === 0]).toEqual([kind, id, false]);
      expect(said(r)).toContain(`resource '${id}' does not exist`);
      expect(said(r)).toContain(words);
      expect(said(r)).not.toMatch(/does not support importing/);
      expect([...tokenFormsIn(said(r), alice), ...tokenFormsIn(said(r), bob)]).toEqual([]);
    }
    expect(await resources()).toEqual([]);
    expect(changing()).toEqual([]);
  }, 300_000);

  test("an app made outside the stack: no validation warning, a placeholder for source in the generated code; with source set, nothing is replaced", async () => {
    const { dir, run, resources } = await yamlStack();
    writeFileSync(
      join(dir, "import.json"),
      JSON.stringify({
        resources: [
          { type: "hosting:index:App", name: "web", id: made.alice },
          { type: "hosting:index:CustomDomain", name: "www", id: "www.outside.pointed.test" },
          { type: "hosting:index:AppWebAccess", name: "web-access", id: made.alice },
          { type: "hosting:index:AppAnalytics", name: "analytics", id: made.alice },
        ],
      }),
    );
    emu.resetStats();
    const r = await run(["import", "--file", "import.json", "--yes", "--out", "imported.yaml"]);
    expect(said(r)).not.toMatch(/failed to validate|bug in the/);
    expect((await resources()).map((x) => `${x.type} ${x.id}`).sort()).toEqual(
      [
        `hosting:index:App ${made.alice}`,
        `hosting:index:AppAnalytics ${made.alice}`,
        `hosting:index:AppWebAccess ${made.alice}`,
        "hosting:index:CustomDomain www.outside.pointed.test",
      ].sort(),
    );
    // What the README says of the generated code.
    const code = readFileSync(join(dir, "imported.yaml"), "utf8");
    expect(code).toContain(`      source: ${PLACEHOLDER}\n`);
    expect(code).toContain("      name: outside\n");
    expect(code).toMatch(
      /web-access:\n {4}type: hosting:AppWebAccess\n(.*\n)*? {6}enabled: false\n/,
    );

    // The program holds the generated code; the placeholder left in is named by the check.
    writeFileSync(join(dir, "Pulumi.yaml"), HEADER + code);
    const kept = await run(["preview"], true);
    expect(kept.code).not.toBe(0);
    expect(said(kept)).toContain(
      "source is still the placeholder `pulumi import` wrote: set it to the folder or .zip of the app's code",
    );

    // Set: the App records its source hash in place and web access is set as the program says.
    writeFileSync(join(dir, "Pulumi.yaml"), HEADER + code.replace(PLACEHOLDER, "./app"));
    const preview = JSON.parse((await run(["preview", "--json"])).stdout) as {
      steps: Array<{ op: string; urn: string }>;
      changeSummary: Record<string, number>;
    };
    const ops = Object.fromEntries(
      preview.steps
        .filter((s) => s.urn.includes("hosting:"))
        .map((s) => [s.urn.split("::").pop(), s.op]),
    );
    // The steps list what changes; the domain and analytics (and the stack) stay the same.
    expect(ops).toEqual({ web: "update", "web-access": "update" });
    expect(preview.changeSummary).toEqual({ same: 3, update: 2 });
    await run(["up", "--yes", "--skip-preview"]);
    await run(["preview", "--expect-no-changes"]);
    expect(emu.world.apps.filter((a) => a.name === "outside").map((a) => a.id)).toEqual([
      made.alice,
    ]);
    // Nothing but web access (set as the program says) was changed on the service.
    expect(changing().map(([route]) => route)).toEqual(["DELETE /apps/{app_id}/web"]);
  }, 300_000);
});

import { join } from "node:path";
import ts from "typescript";
import { useEmulators } from "../helpers/emulator";
import { Deployment } from "../helpers/deployment";
import { ROOT } from "../helpers/pulumi-parts";
import { programDir } from "../helpers/stack-dir";

const emulators = useEmulators();

/*
 * Every Output a resource class declares exists at run time and resolves, even when the program
 * did not set it. The list of outputs is read from the classes' types (everything exported from
 * src/index.ts that has an Output `urn`), so a new output or a new resource cannot be missed.
 */

/** `Output<T>` (an alias), or the `OutputInstance<T>` it becomes for primitive T. */
const isOutput = (t: ts.Type) =>
  ["Output", "OutputInstance"].includes(t.aliasSymbol?.name ?? t.getSymbol()?.name ?? "");

function declaredOutputs(): Record<string, string[]> {
  // The built declarations (what users compile against), not src/: far less to parse.
  const entry = join(ROOT, "dist", "index.d.ts");
  const program = ts.createProgram([entry], {
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const out: Record<string, string[]> = {};
  for (const exported of checker.getExportsOfModule(module)) {
    const sym =
      exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(sym.flags & ts.SymbolFlags.Class)) continue;
    const instance = checker.getDeclaredTypeOfSymbol(sym);
    const outputs = checker
      .getPropertiesOfType(instance)
      .filter((p) => isOutput(checker.getTypeOfSymbol(p)))
      .map((p) => p.name);
    if (outputs.includes("urn")) out[sym.name] = outputs.sort();
  }
  return out;
}

test("every declared output of every resource exists and resolves; unset settings resolve to the platform's value or undefined", async () => {
  const declared = declaredOutputs();
  // The type walk itself found what it should (and so would find a new output).
  expect(Object.keys(declared).sort()).toEqual(
    [
      "App",
      "AppAnalytics",
      "AppWebAccess",
      "BackupDeletion",
      "CustomDomain",
      "DatabaseSetupRetry",
      "VmStart",
    ].sort(),
  );
  expect(declared.App).toEqual(expect.arrayContaining(["subdomain", "ram", "sourceHash", "id"]));

  const emu = await emulators.start({ seed: "walk", setupDelayMs: 0 });
  try {
    const me = emu.users[0].id;
    const db = emu.world.databases.find((d) => d.user_id === me)!;
    const backup = emu.world.backups
      .filter((b) => b.project_id === db.id)
      .reduce((a, b) => (a.created_at < b.created_at ? a : b));
    const dir = programDir(join(__dirname, "fixtures", "outputs-walk"));
    const stack = new Deployment({
      programDir: dir,
      providerCwd: dir,
      stateFile: join(dir, "state.json"),
      config: {
        "hosting:apiUrl": emu.url,
        "hosting:token": emu.issueToken(),
        "hosting:declared": JSON.stringify(declared),
        "hosting:vmId": emu.world.vms.find((v) => v.user_id === me)!.id,
        "hosting:database": JSON.stringify({ id: db.id, backupId: backup.id }),
      },
      secretConfigKeys: ["hosting:token"],
    });
    const r = await stack.up();
    if (!r.ok) throw new Error(`deployment failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
    const walked = r.outputs.walked as Record<string, Record<string, unknown>>;

    for (const [cls, keys] of Object.entries(declared)) {
      expect([cls, Object.keys(walked[cls] ?? {}).sort()]).toEqual([cls, keys]);
      const missing = keys.filter((k) => walked[cls][k] === "(missing)");
      expect([cls, missing]).toEqual([cls, []]);
    }
    const app = emu.world.apps.find((a) => a.user_id === me)!;
    // Not set in the program: the platform's values.
    expect(walked.App).toMatchObject({
      id: app.id,
      subdomain: app.subdomain,
      ram: app.ram,
      vcpu: app.vcpu,
      // Neither set nor reported: undefined inside the Output.
      runtime: "(undefined)",
      adoptId: "(undefined)",
      setupTimeoutSeconds: "(undefined)",
      env: "(undefined)",
    });
    expect(walked.CustomDomain).toMatchObject({
      hostname: "walk.pointed.test",
      waitForActive: "(undefined)",
      activeTimeoutSeconds: "(undefined)",
    });
    expect(walked.VmStart).toMatchObject({ triggers: "(undefined)", message: expect.any(String) });
  } finally {
    await emu.stop();
  }
  // 15 s alone; a loaded machine (CI beside other jobs) took over 60.
}, 180_000);

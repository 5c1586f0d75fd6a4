// Records a golden upgrade state (run after `npm run build`): deploys test/upgrade/program, one
// resource of every kind, with today's build through Pulumi's program runtime and dynamic-provider
// host against the emulator, and keeps what the engine and the emulator keep, under
// test/upgrade/golden/<package version>/. test/upgrade/golden.test.ts replays every such folder
// with the current build. Record once per release; never re-record or edit an existing folder.
const {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} = require("node:fs");
const { join } = require("node:path");
const { startEmulator } = require("../dist/emulator");
const { Deployment } = require("../test/helpers/deployment");
const { programDir } = require("../test/helpers/stack-dir");

const ROOT = join(__dirname, "..");
const { version } = require("../package.json");
// --serialized-provider: the same stack as a build before provider-text.ts wrote it (below).
const SERIALIZED = process.argv.includes("--serialized-provider");
const OUT = join(
  ROOT,
  "test",
  "upgrade",
  "golden",
  `${version}${SERIALIZED ? "-serialized-provider" : ""}`,
);
const PROJECT = "golden";
const STACK = "dev";
const SEED = `golden-${version}`;

async function main() {
  if (existsSync(OUT) && !process.argv.includes("--force")) {
    throw new Error(`${OUT} exists: a recorded golden state is never re-recorded (--force to)`);
  }
  const dir = programDir(join(ROOT, "test", "upgrade", "program"));
  const emuFile = join(dir, "emulator-state.json");
  // Setup and activation at once: the recorded state is settled (setup done, domain active).
  const emu = await startEmulator({
    seed: SEED,
    stateFile: emuFile,
    setupDelayMs: 0,
    domainActivationMs: 0,
  });
  try {
    const user = emu.users[0];
    const vm = emu.world.vms.find((v) => v.user_id === user.id);
    const db = emu.world.databases.find((d) => d.user_id === user.id);
    // The oldest backup of the VM: past the minimum retention age, so it may be deleted.
    const backup = emu.world.backups
      .filter((b) => b.project_id === vm.id)
      .sort((a, b) => a.created_at - b.created_at)[0];
    const stackConfig = {
      "golden:vmId": vm.id,
      "golden:databaseId": db.id,
      "golden:backupProjectId": vm.id,
      "golden:backupId": backup.id,
    };
    const token = emu.issueToken(user.id);
    const stack = new Deployment({
      programDir: dir,
      providerCwd: dir,
      stateFile: join(dir, "state.json"),
      project: PROJECT,
      stack: STACK,
      config: { ...stackConfig, "hosting:apiUrl": emu.url, "hosting:token": token },
      secretConfigKeys: ["hosting:token"],
    });
    const r = await stack.up();
    if (!r.ok) throw new Error(`up failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
    const notCreated = r.steps.filter((s) => s.op !== "create");
    if (notCreated.length > 0) throw new Error(`unexpected steps: ${JSON.stringify(notCreated)}`);
    // A user's refresh after the first up: the App's customDomain output, empty when the App was
    // created, takes the domain attached after it. The recorded state is that settled one.
    const refreshed = await stack.refresh();
    const changed = refreshed.steps.filter((s) => s.op !== "same").map((s) => s.urn);
    if (changed.join() !== r.steps.find((s) => s.urn.includes(":App::")).urn) {
      throw new Error(`refresh after up changed ${JSON.stringify(changed)}, expected the App only`);
    }

    if (SERIALIZED) await rewriteProvider(join(dir, "state.json"));
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    cpSync(join(ROOT, "test", "upgrade", "program"), join(OUT, "program"), { recursive: true });
    // The engine's state as the harness keeps it: secrets sealed, with the key beside it.
    copyFileSync(join(dir, "state.json"), join(OUT, "state.json"));
    copyFileSync(join(dir, "state.json.key"), join(OUT, "state.json.key"));
    // The emulator's state, pretty-printed so a diff of the fixture reads.
    const world = JSON.parse(readFileSync(emuFile, "utf8"));
    writeFileSync(join(OUT, "emulator-state.json"), `${JSON.stringify(world, null, 2)}\n`);
    const recorded = {
      version,
      recordedAt: new Date().toISOString(),
      pulumi: require("@pulumi/pulumi/package.json").version,
      node: process.version,
      seed: SEED,
      ...(SERIALIZED
        ? { provider: "serializeFunction text of the builds before provider-text.ts" }
        : {}),
      project: PROJECT,
      stack: STACK,
      user: user.name,
      config: stackConfig,
    };
    writeFileSync(join(OUT, "golden.json"), `${JSON.stringify(recorded, null, 2)}\n`);
    for (const file of ["state.json", "emulator-state.json", "golden.json"]) {
      if (readFileSync(join(OUT, file), "utf8").includes(token)) {
        throw new Error(`${file} holds the API token: not recording it`);
      }
    }
    writeFileSync(join(OUT, "README.md"), readme(recorded, r.steps.length));
    console.log(`recorded ${r.steps.length} resources in ${OUT}`);
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Builds before provider-text.ts wrote `__provider` as Pulumi's serializeFunction over a methods
 * object (~2.2 KiB per kind) that loads the package's handlers at call time. Stacks of theirs
 * still hold that text; this puts it in place of today's, as test/provider/config-and-closures
 * builds it, so the replay proves such stacks keep working.
 */
async function rewriteProvider(stateFile) {
  const pulumi = require("@pulumi/pulumi");
  const { loadState, saveState } = require("../test/helpers/state");
  const earlier = async (kind) => {
    const m = () => require("pulumi-hosting").providerHandlers(kind);
    const provider = {
      configure: (r) => m().configure(r),
      check: (o, n) => m().check(o, n),
      diff: (i, o, n) => m().diff(i, o, n),
      create: (n) => m().create(n),
      read: (i, p) => m().read(i, p),
      update: (i, o, n) => m().update(i, o, n),
      delete: (i, p) => m().delete(i, p),
    };
    return (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
  };
  const state = loadState(stateFile);
  for (const r of state.resources) {
    const text = await earlier(r.type.split(":").pop());
    r.inputs.__provider = text;
    if ("__provider" in r.outputs) r.outputs.__provider = text;
  }
  saveState(stateFile, state);
}

const readme = (g, n) => `# Golden state of pulumi-hosting ${g.version}

Recorded ${g.recordedAt} by
\`npm run build && node scripts/record-golden.js${SERIALIZED ? " --serialized-provider" : ""}\` with the code of
release ${g.version}: the program in \`program/\` (${n} resources, one of every kind) was deployed
(\`up\`, then a \`refresh\` that fills in the App's customDomain) through Pulumi's program
runtime and dynamic-provider host (\`test/helpers/\`) against the emulator (seed
\`golden-${g.version}\`, user \`${g.user}\`).

${
  SERIALIZED
    ? "After the deployment every `__provider` was put back to the text builds before\n" +
      "`src/provider/provider-text.ts` wrote (Pulumi's serializeFunction over a methods object,\n" +
      "~2.2 KiB per kind): what stacks made by those builds hold.\n\n"
    : ""
}- \`state.json\`: the stack's state as the engine keeps it (inputs, id, outputs, \`__provider\`
  text); secret values are sealed with the key in \`state.json.key\` (a test key, nothing else).
- \`emulator-state.json\`: the emulator's state file after the deployment.
- \`golden.json\`: project, stack, user and the stack config (no URL, no token: the replay starts
  its own emulator and mints a fresh token for the user).

\`test/upgrade/golden.test.ts\` replays this folder with the current build: preview clean, refresh
clean, destroy through the recorded \`__provider\`. **Do not edit or re-record these files.** A
change that breaks them needs a migration in the provider and an entry in the CHANGELOG.
`;

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

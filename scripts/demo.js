// `npm run demo`: starts the emulator, deploys examples/basic, prints the stack's outputs,
// destroys the stack and stops everything it started.
const { spawnSync } = require("node:child_process");
const { mkdtempSync, rmdirSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { startEmulator } = require("../dist/emulator");
const { programDir } = require("../test/harness/stack-dir");

const ROOT = join(__dirname, "..");

function show(outputs, secrets) {
  for (const [k, v] of Object.entries(outputs)) {
    const text = secrets.includes(k) ? "[secret]" : JSON.stringify(v, null, 2);
    console.log(`  ${k}: ${text.replace(/\n/g, "\n  ")}`);
  }
}

async function withCli(emu, dir) {
  const { LocalWorkspace } = require("@pulumi/pulumi/automation");
  const backend = mkdtempSync(join(tmpdir(), "pulumi-backend-"));
  try {
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "demo", workDir: dir },
      { envVars: { PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "demo" } },
    );
    await stack.setConfig("hosting:apiUrl", { value: emu.url });
    await stack.setConfig("hosting:token", { value: emu.issueToken(), secret: true });
    const up = await stack.up({ onOutput: (o) => process.stdout.write(o) });
    const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, o]) => [k, o.value]));
    const secrets = Object.entries(up.outputs)
      .filter(([, o]) => o.secret)
      .map(([k]) => k);
    console.log("\nStack outputs:");
    show(outputs, secrets);
    await stack.destroy({ onOutput: (o) => process.stdout.write(o) });
  } finally {
    rmSync(backend, { recursive: true, force: true });
  }
}

async function withHarness(emu, dir) {
  const { Deployment } = require("../test/harness/deployment");
  const stack = new Deployment({
    programDir: dir,
    providerCwd: dir,
    stateFile: join(dir, "state.json"),
    project: "hosting-basic",
    config: { "hosting:apiUrl": emu.url, "hosting:token": emu.issueToken() },
    secretConfigKeys: ["hosting:token"],
  });
  const up = await stack.up();
  for (const s of up.steps)
    console.log(`  ${s.op.padEnd(8)} ${s.urn.split("::").slice(2).join("::")}`);
  if (!up.ok) throw new Error(`deployment failed:\n${up.stderr}`);
  console.log("\nStack outputs:");
  show(up.outputs, up.secretOutputs);
  const down = await stack.destroy();
  console.log(`\nDestroyed ${down.steps.length} resources.`);
}

function removeIfEmpty(dir) {
  try {
    rmdirSync(dir);
  } catch (err) {
    if (err.code !== "ENOTEMPTY" && err.code !== "ENOENT") throw err;
  }
}

async function main() {
  const emu = await startEmulator({ seed: "demo", setupDelayMs: 300, domainActivationMs: 500 });
  const parent = join(ROOT, ".demo");
  const dir = programDir(join(ROOT, "examples", "basic"), parent);
  console.log(`Emulator of the Hosting API on ${emu.url}`);
  try {
    const cli = spawnSync("pulumi", ["version"], { encoding: "utf8" });
    if (cli.status === 0) {
      console.log(`Deploying examples/basic with the Pulumi CLI ${cli.stdout.trim()}…\n`);
      await withCli(emu, dir);
    } else {
      console.log(
        "No Pulumi CLI on PATH: deploying examples/basic through the test harness (Pulumi's own\n" +
          "program runtime and dynamic-provider host, driven by test/harness). Real users run `pulumi up`.\n",
      );
      await withHarness(emu, dir);
    }
    const left = emu.world.apps.length;
    console.log(
      left === 0 ? "The emulator holds nothing the stack made." : `${left} apps left behind!`,
    );
  } finally {
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
    // The parent folder too, unless another run still has its program in it.
    removeIfEmpty(parent);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});

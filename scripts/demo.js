// `npm run demo`: starts the emulator, deploys examples/basic through the real Pulumi CLI
// (scripts/pulumi-cli.js finds it or builds it once per machine), prints what `pulumi` prints
// and the stack's outputs, destroys the stack and stops everything it started.
const { rmdirSync, rmSync } = require("node:fs");
const { join } = require("node:path");
const { startEmulator } = require("../dist/emulator");
const { ensure } = require("./pulumi-cli");
const { programDir } = require("../test/helpers/stack-dir");
const { PulumiStack } = require("../test/helpers/pulumi");

const ROOT = join(__dirname, "..");

function removeIfEmpty(dir) {
  try {
    rmdirSync(dir);
  } catch (err) {
    if (err.code !== "ENOTEMPTY" && err.code !== "ENOENT") throw err;
  }
}

/** `pulumi <op>`, its output shown as it comes; fails with the CLI's own words. */
async function step(stack, op, flags = []) {
  console.log(`\n$ pulumi ${op} ${flags.join(" ")}`.trimEnd());
  const r = await stack.op(op, flags, { onStdout: (d) => process.stdout.write(d) });
  if (!r.ok) throw new Error(`pulumi ${op} failed (${r.code ?? r.signal}):\n${r.stderr}`);
  return r;
}

async function main() {
  const found = ensure();
  if ("missing" in found) throw new Error(`npm run demo needs the Pulumi CLI: ${found.missing}`);
  const emu = await startEmulator({ seed: "demo", setupDelayMs: 300, domainActivationMs: 500 });
  const parent = join(ROOT, ".demo");
  const dir = programDir(join(ROOT, "examples", "basic"), parent);
  console.log(`Emulator of the Hosting API on ${emu.url}; Pulumi CLI ${found.version}`);
  try {
    const stack = new PulumiStack({ dir, project: "hosting-basic", stack: "demo" });
    await stack.init({
      config: { "hosting:apiUrl": emu.url },
      secrets: { "hosting:token": emu.issueToken() },
    });
    await step(stack, "preview");
    await step(stack, "up");
    console.log("\n$ pulumi stack output");
    console.log((await stack.pulumi(["stack", "output", "--stack", "demo"])).stdout);
    await step(stack, "destroy");
    const left = emu.world.apps.length;
    console.log(
      left === 0 ? "\nThe emulator holds nothing the stack made." : `\n${left} apps left behind!`,
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

// `npm run bench`: prints figures; never part of `npm test` pass or fail.
const os = require("node:os");

const suites = {
  client: () => require("./client.bench")(),
  emulator: () => require("./emulator.bench")(),
  provider: () => require("./provider.bench")(),
  scale: () => require("./scale.bench")(),
  engine: () => require("./engine.bench")(),
  require: () => require("./require.bench")(),
  state: () => require("./state.bench")(),
  source: () => require("./source.bench")(),
  failing: () => require("./failing.bench")(),
};

async function main() {
  // Suite names; `--flag value` pairs are the suites' own options (see each bench file).
  const argv = process.argv.slice(2);
  const only = argv.filter((a, i) => !a.startsWith("--") && !argv[i - 1]?.startsWith("--"));
  console.log(
    `# pulumi-hosting benchmarks — node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
  );
  for (const [name, run] of Object.entries(suites)) {
    if (only.length && !only.includes(name)) continue;
    await run();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

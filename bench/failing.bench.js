// A failing `up` through Pulumi's program runtime and dynamic-provider host (test/helpers/):
// wall time and the program process's peak RSS per case. Before this package printed its own
// errors, Node 20.20's error formatting made each take minutes and gigabytes (README,
// "Slow error reports on Node.js 20.20").
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { startEmulator } = require("../dist/emulator");
const { Deployment } = require("../test/helpers/deployment");
const { programDir } = require("../test/helpers/stack-dir");
const { report } = require("./util");

const FIXTURES = path.join(__dirname, "..", "test", "e2e", "fixtures");

async function failingUp(emu, fixture, token) {
  const dir = programDir(path.join(FIXTURES, fixture));
  const rssFile = path.join(os.tmpdir(), `hosting-bench-rss-${process.pid}-${fixture}`);
  fs.rmSync(rssFile, { force: true });
  const stack = new Deployment({
    programDir: dir,
    providerCwd: dir,
    stateFile: path.join(dir, "state.json"),
    config: { "hosting:apiUrl": emu.url, "hosting:token": token },
    secretConfigKeys: ["hosting:token"],
    env: {
      NODE_OPTIONS: `--require ${path.join(__dirname, "max-rss-child.js")}`,
      BENCH_RSS_FILE: rssFile,
    },
  });
  const started = Date.now();
  const r = await stack.up();
  const ms = Date.now() - started;
  const rss = fs.readFileSync(rssFile, "utf8").trim().split("\n").map(Number);
  fs.rmSync(rssFile, { force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  if (r.ok) throw new Error(`${fixture}: the up was expected to fail`);
  const errors = r.logs.filter((l) => l.severity === 3).length;
  return `${(ms / 1000).toFixed(1)} s, peak RSS ${(Math.max(...rss) / 1024).toFixed(0)} MiB, ${errors} error message(s)`;
}

module.exports = async function failingBench() {
  const emu = await startEmulator({ seed: "bench-failing", setupDelayMs: 0 });
  try {
    const expired = emu.issueToken(undefined, { expiresInSeconds: -10 });
    report("failing up (harness: Pulumi's program runtime and provider host)", {
      "data source error (pickRuntimeVersion)": await failingUp(
        emu,
        "failing-data-source",
        emu.issueToken(),
      ),
      "misspelt source": await failingUp(emu, "missing-source", emu.issueToken()),
      "expired token (401) in a data source": await failingUp(emu, "failing-data-source", expired),
    });
  } finally {
    await emu.stop();
  }
};

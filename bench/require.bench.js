// Cost of `require("pulumi-hosting")` against `require("@pulumi/pulumi")` alone, each in fresh
// processes (interleaved, so that load on the machine hits both alike).
const { execFileSync } = require("node:child_process");
const { join } = require("node:path");
const { median, report } = require("./util");

const ROOT = join(__dirname, "..");
const timed = (mod) =>
  `const t = process.hrtime.bigint(); require(${JSON.stringify(mod)}); ` +
  `console.log(Number(process.hrtime.bigint() - t) / 1e6)`;

function once(mod) {
  return Number(
    execFileSync(process.execPath, ["-e", timed(mod)], { cwd: ROOT, encoding: "utf8" }),
  );
}

module.exports = async function requireBench() {
  const runs = 15;
  const pulumi = [];
  const ours = [];
  once("pulumi-hosting"); // warm the file cache
  for (let i = 0; i < runs; i++) {
    pulumi.push(once("@pulumi/pulumi"));
    ours.push(once("pulumi-hosting"));
  }
  const spread = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
  report(`require cost, fresh processes (${runs} each, interleaved)`, {
    "require(@pulumi/pulumi) median ms (min–max)": `${median(pulumi).toFixed(0)} (${spread(pulumi)})`,
    "require(pulumi-hosting) median ms (min–max)": `${median(ours).toFixed(0)} (${spread(ours)})`,
    "ratio (target ≤ 1.10)": (median(ours) / median(pulumi)).toFixed(3),
  });
};

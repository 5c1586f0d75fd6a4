// Shared helpers for the benchmarks: timing, percentiles, the emulator as a child process.
// The emulator runs in its own process, so its memory and CPU are not the measured side's.
const { spawnEmulator } = require("../test/helpers/spawn-emulator");

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

async function seedApps(url, count) {
  const res = await fetch(`${url}/__emulator/apps`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ count }),
  });
  if (!res.ok) throw new Error(`seeding apps failed: ${res.status}`);
}

function report(name, figures) {
  console.log(`\n## ${name}`);
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${v}`);
}

/** The value of `--name value` or `--name=value` on the command line; `true` for a bare `--name`. */
function flag(name) {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1] && !argv[i + 1].startsWith("--") ? argv[i + 1] : true;
    if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
  }
  return undefined;
}

module.exports = { median, percentile, spawnEmulator, seedApps, report, flag };

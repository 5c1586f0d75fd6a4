// Shared helpers for the benchmarks: timing, percentiles, the emulator as a child process.
const { spawn } = require("node:child_process");
const { join } = require("node:path");
const { createInterface } = require("node:readline");

const root = join(__dirname, "..");

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Runs the emulator in its own process, so its memory and CPU are not the measured side's. */
async function spawnEmulator(args = []) {
  const child = spawn(
    process.execPath,
    [join(root, "dist/emulator/cli.js"), "--port", "0", ...args],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const found = {};
  await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`emulator exited ${code}`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      const m = /^(HOSTING_API_URL|HOSTING_TOKEN)=(.*)$/.exec(line);
      if (m) found[m[1]] = m[2];
      if (found.HOSTING_API_URL && found.HOSTING_TOKEN) resolve();
    });
  });
  child.removeAllListeners("exit");
  return {
    url: found.HOSTING_API_URL,
    token: found.HOSTING_TOKEN,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
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

module.exports = { root, median, percentile, spawnEmulator, seedApps, report };

// `node scripts/replace-timeline.js [--runs N] [--setup-delay-ms N]`: what a one-line source
// change does to an App with a CustomDomain, AppWebAccess and AppAnalytics. Deploys through the
// real Pulumi CLI (scripts/pulumi-cli.js) against the `hosting-emulator` bin with --log, prints
// `pulumi preview` as the CLI printed it, then every changing request of the replace, and how
// long the custom domain was attached to no app, read from the emulator's own request log.
// Needs `npm run build` first. Prints figures only.
const { appendFileSync, rmSync } = require("node:fs");
const os = require("node:os");
const { join } = require("node:path");
const { parseArgs } = require("node:util");
const { requestLog } = require("../test/helpers/request-log");
const { spawnEmulator } = require("../test/helpers/spawn-emulator");
const { programDir } = require("../test/helpers/stack-dir");
const { PulumiStack } = require("../test/helpers/pulumi");
const { ensure } = require("./pulumi-cli");

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    "setup-delay-ms": { type: "string", default: "200" },
  },
});
const RUNS = Number(values.runs);
const SETUP_DELAY_MS = Number(values["setup-delay-ms"]);
const FIXTURE = join(__dirname, "..", "test", "e2e", "fixtures", "replace");

/** When the domain left the old app, when it reached the new one, and the gap, from the log. */
function domainGap(log, oldId, newId) {
  const detached = log.find(
    (r) =>
      r.method === "DELETE" &&
      (r.url === `/apps/${oldId}/domains` || r.url === `/apps/${oldId}`) &&
      r.status < 300,
  );
  const attached = log.find(
    (r) => r.method === "POST" && r.url === `/apps/${newId}/domains` && r.status < 300,
  );
  return { detached, attached, gapMs: attached.at - detached.at };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function scenario(emu, log, label, extraConfig) {
  const dir = programDir(FIXTURE, join(__dirname, "..", "test", ".work", "timeline"));
  // Every look at the app list is fresh, as a separate deployment's would be.
  const stack = new PulumiStack({ dir, project: "shop", env: { HOSTING_LIST_CACHE_MS: "0" } });
  await stack.init({
    config: { "hosting:apiUrl": emu.url, ...extraConfig },
    secrets: { "hosting:token": emu.token },
  });
  const gaps = [];
  try {
    await stack.ok(["up", "--yes", "--non-interactive"]);
    let outputs = await stack.outputs();
    console.log(`\n## ${label}\n\nsubdomain after the first up: ${outputs.subdomain}`);
    for (let run = 1; run <= RUNS; run++) {
      appendFileSync(join(dir, "app", "index.js"), `// change ${run}\n`);
      const preview = await stack.ok(["preview", "--non-interactive"]);
      if (run === 1) console.log(`\n${preview.stdout.trim()}\n`);
      const oldId = outputs.appId;
      const from = log.length;
      await stack.ok(["up", "--yes", "--non-interactive"]);
      outputs = await stack.outputs();
      const newId = outputs.appId;
      const slice = log.slice(from);
      const g = domainGap(slice, oldId, newId);
      gaps.push(g.gapMs);
      if (run === 1) {
        console.log(`up after a one-line source change: subdomain now ${outputs.subdomain}`);
        console.log("its changing requests, in ms after the first one answered (GETs left out):");
        const changing = slice.filter((x) => x.method !== "GET");
        const between = slice.slice(slice.indexOf(g.detached) + 1, slice.indexOf(g.attached));
        console.log(
          `(between detach and attach: ${between.map((r) => `${r.method} ${r.url.replace(newId, "{new}").replace(oldId, "{old}")}`).join(", ") || "nothing"})`,
        );
        for (const r of changing) {
          const who = r.url.replace(oldId, "{old}").replace(newId, "{new}");
          const at = String(r.at - changing[0].at).padStart(5);
          console.log(`  ${at} ms  ${r.method} ${who} -> ${r.status}`);
        }
      }
    }
    await stack.destroy();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `custom domain attached to no app, over ${RUNS} replaces: median ${median(gaps)} ms, ` +
      `min ${Math.min(...gaps)} ms, max ${Math.max(...gaps)} ms`,
  );
  return gaps;
}

async function main() {
  const found = ensure();
  if ("missing" in found) throw new Error(found.missing);
  const spawned = await spawnEmulator([
    "--seed",
    "replace-timeline",
    "--log",
    "--setup-delay-ms",
    String(SETUP_DELAY_MS),
  ]);
  const log = requestLog(spawned.child);
  const emu = {
    url: spawned.url,
    token: spawned.token,
  };
  console.log(
    `# A one-line source change to an App with a CustomDomain (emulator on loopback, ` +
      `setup ${SETUP_DELAY_MS} ms; pulumi ${found.version}; node ${process.version}; load average ` +
      `${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
  );
  try {
    await scenario(emu, log, "subdomain assigned by the platform (default)", {});
    await scenario(emu, log, "subdomain pinned (`subdomain: shop-web`)", {
      "shop:subdomain": "shop-web",
    });
  } finally {
    await spawned.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

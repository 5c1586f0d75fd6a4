// `node scripts/replace-timeline.js [--runs N] [--setup-delay-ms N]`: what a one-line source
// change does to an App with a CustomDomain, AppWebAccess and AppAnalytics. Runs the deployment
// harness (Pulumi's program runtime and dynamic-provider host, test/harness/) against the
// `hosting-emulator` bin with --log, prints the preview in the Pulumi CLI's layout, then every
// changing request of the replace, and how long the custom domain was attached to no app,
// read from the emulator's own request log. Needs `npm run build` first. Prints figures only.
const { appendFileSync, rmSync } = require("node:fs");
const os = require("node:os");
const { join } = require("node:path");
const { parseArgs } = require("node:util");
const { requestLog } = require("../test/harness/request-log");
const { spawnEmulator } = require("../test/harness/spawn-emulator");
const { replaceStack } = require("../test/e2e/fixtures/replace/stack");

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    "setup-delay-ms": { type: "string", default: "200" },
  },
});
const RUNS = Number(values.runs);
const SETUP_DELAY_MS = Number(values["setup-delay-ms"]);
const ok = (r) => {
  if (!r.ok) throw new Error(`deployment failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r;
};
const kind = (urn) => urn.split("::")[2];
const name = (urn) => urn.split("::")[3];

/** The harness's preview steps in the Pulumi CLI's `pulumi preview` table layout. */
function render(steps, stack) {
  const sym = { create: "+ ", update: "~ ", replace: "+-", delete: "- ", same: "  " };
  const rows = steps.map((s, i) => [
    ` ${sym[s.op]}  ${i === steps.length - 1 ? "└─" : "├─"} ${kind(s.urn)}`,
    name(s.urn),
    s.op === "same" ? "" : s.op,
    s.replaces ? `[diff: ${s.replaces.map((p) => `~${p}`).join(", ")}]` : "",
  ]);
  const all = [
    ["     Type", "Name", "Plan", "Info"],
    ["     pulumi:pulumi:Stack", stack, "", ""],
  ];
  all.push(...rows);
  const w = [0, 1, 2].map((c) => Math.max(...all.map((r) => r[c].length)) + 1);
  const lines = all.map((r) =>
    r
      .map((x, c) => (c < 3 ? x.padEnd(w[c]) : x))
      .join(" ")
      .trimEnd(),
  );
  const counts = {};
  for (const s of steps) counts[s.op] = (counts[s.op] ?? 0) + 1;
  const verbs = { create: "+", update: "~", replace: "+-", delete: "-" };
  const summary = Object.entries(counts)
    .filter(([op]) => op !== "same")
    .map(([op, n]) => `    ${verbs[op]}${n} to ${op}`);
  const same = (counts.same ?? 0) + 1;
  return [
    `Previewing update (dev):`,
    ...lines,
    "",
    "Resources:",
    ...summary,
    `    ${same} unchanged`,
  ].join("\n");
}

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
  const { dir, stack } = replaceStack(emu, extraConfig);
  const gaps = [];
  try {
    let up = ok(await stack.up());
    console.log(`\n## ${label}\n\nsubdomain after the first up: ${up.outputs.subdomain}`);
    for (let run = 1; run <= RUNS; run++) {
      appendFileSync(join(dir, "app", "index.js"), `// change ${run}\n`);
      const preview = ok(await stack.preview());
      if (run === 1) console.log(`\n${render(preview.steps, "shop-dev")}\n`);
      const oldId = up.outputs.appId;
      const from = log.length;
      up = ok(await stack.up());
      const newId = up.outputs.appId;
      const slice = log.slice(from);
      const g = domainGap(slice, oldId, newId);
      gaps.push(g.gapMs);
      if (run === 1) {
        console.log(`up after a one-line source change: subdomain now ${up.outputs.subdomain}`);
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
      `setup ${SETUP_DELAY_MS} ms; node ${process.version}; load average ` +
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

// State under faults: 200 App creates through Pulumi's provider host while GET /apps and POST
// /apps misbehave. Prints what the platform holds against what the resources hold.
const { mkdtemp, writeFile } = require("node:fs/promises");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { providerText } = require("../dist/provider/provider-text");
const { ProviderHost } = require("../test/helpers/provider-host");
const { spawnEmulator, report } = require("./util");

const COUNT = 200;
const FAULTS = {
  rules: [
    { route: "GET /apps", status: 500, probability: 0.1 },
    { route: "GET /apps", reset: true, probability: 0.05 },
    { route: "POST /apps", commitThenStatus: 502, probability: 0.05 },
    { route: "POST /apps", commitThenStatus: 504, probability: 0.05 },
    { route: "POST /apps", commitThenDrop: true, probability: 0.05 },
    { route: "POST /apps", reset: true, probability: 0.05 },
    { route: "POST /apps", status: 503, probability: 0.05 },
  ],
};

const post = (url, path, body) =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

function kindOf(e) {
  if (e.initFailure) return "app made, kept in the stack after a failed setup wait";
  if (/did not take effect/.test(e.message)) return "reply lost, no app made (says: run up again)";
  if (/could not be read/.test(e.message)) return "reply lost, outcome unknown (says how to check)";
  if (/new apps named/.test(e.message)) return "reply lost, several candidates (says: adoptId)";
  return "failed before any app was made";
}

function tally(outcomes) {
  const kinds = {};
  for (const o of outcomes) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
  return kinds;
}

module.exports = async function stateBench() {
  const emu = await spawnEmulator(["--setup-delay-ms", "300", "--seed", "state-bench"]);
  const host = await ProviderHost.start();
  try {
    await host.configure({ "hosting:apiUrl": emu.url, "hosting:token": emu.token });
    const __provider = providerText("App");
    const source = await mkdtemp(join(tmpdir(), "hosting-bench-src-"));
    await writeFile(join(source, "index.js"), "console.log('hi')\n");
    const names = Array.from({ length: COUNT }, (_, i) => `fault-${i}`);
    const urn = (n) => `urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::${n}`;
    const checked = await Promise.all(
      names.map((name) => host.check(urn(name), {}, { __provider, source, name })),
    );

    await post(emu.url, "/__emulator/faults", FAULTS);
    await fetch(`${emu.url}/__emulator/stats`, { method: "DELETE" });
    const started = Date.now();
    const createAll = (which) =>
      Promise.all(
        which.map((i) =>
          host.create(urn(names[i]), checked[i].inputs).then(
            (r) => ({ i, id: r.id, kind: "created" }),
            (e) => ({ i, id: e.initFailure?.id, kind: kindOf(e) }),
          ),
        ),
      );
    const outcomes = await createAll(names.map((_, i) => i));
    const firstKinds = tally(outcomes);
    // Like running `pulumi up` again (faults still on) for the creates that left no app.
    let rounds = 1;
    for (; rounds < 6; rounds++) {
      const retry = outcomes.filter((o) => !o.id).map((o) => o.i);
      if (retry.length === 0) break;
      for (const o of await createAll(retry)) outcomes[o.i] = o;
    }
    const wallMs = Date.now() - started;
    const stats = await (await fetch(`${emu.url}/__emulator/stats`)).json();
    await post(emu.url, "/__emulator/faults", {});

    const state = await (await fetch(`${emu.url}/__emulator/state`)).json();
    const apps = state.apps.filter((a) => a.name.startsWith("fault-"));
    const held = outcomes.filter((o) => o.id).map((o) => o.id);
    const heldSet = new Set(held);
    const perName = new Map();
    for (const a of apps) perName.set(a.name, (perName.get(a.name) ?? 0) + 1);
    report(`state under faults: ${COUNT} App creates through the provider host`, {
      faults: FAULTS.rules
        .map(
          (r) =>
            `${r.route} ${r.status ?? r.commitThenStatus ?? (r.reset ? "reset" : "commit+drop")}${r.commitThenStatus ? " after commit" : ""} p=${r.probability}`,
        )
        .join("; "),
      "faults fired": JSON.stringify(stats.faults),
      "wall ms": wallMs,
      "GET /apps calls": stats.requests["GET /apps"],
      "POST /apps calls": stats.requests["POST /apps"],
      ...Object.fromEntries(Object.entries(firstKinds).map(([k, v]) => [`first up: ${k}`, v])),
      "ups until every resource held an app": rounds,
      "apps made": apps.length,
      "resources holding them": heldSet.size,
      "orphans (apps no resource holds)": apps.filter((a) => !heldSet.has(a.id)).length,
      "duplicates (extra apps of one resource's name)": [...perName.values()].reduce(
        (n, c) => n + (c - 1),
        0,
      ),
      "shared (one app held by two resources)": held.length - heldSet.size,
      "dangling (resource holding no app)": held.filter((id) => !apps.some((a) => a.id === id))
        .length,
    });
  } finally {
    await host.stop();
    await emu.stop();
  }
};

// Reads what bench/trace-hook.js wrote during one side's `pulumi up`, `preview` and `destroy`, and
// prints where each command's time went: the program's start and its RegisterResource calls, the
// provider host's start, each gRPC method it served (count, total, median, p90), the gaps the
// engine left between the calls it makes one at a time (check and diff), the spans inside this
// provider (hashing, packing, app lists, the client's requests) and the emulator's requests.
const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const { median, percentile, report } = require("./util");

function readTrace(dir) {
  const events = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(dir, f), "utf8").split("\n")) {
      if (line.trim()) events.push(JSON.parse(line));
    }
  }
  return events;
}

const roleOf = (argv) => {
  const s = argv.join(" ");
  if (s.includes("dynamic-provider")) return "provider host";
  if (s.includes("cmd/run")) return "program";
  return "other";
};

const ms = (x) => `${x.toFixed(1)} ms`;
const s = (x) => `${(x / 1000).toFixed(2)} s`;

/** n, total, median and p90 of durations (ms). */
function spread(durations) {
  if (!durations.length) return "none";
  const sum = durations.reduce((a, b) => a + b, 0);
  return (
    `n ${durations.length}, total ${s(sum)}, median ${ms(median(durations))}, ` +
    `p90 ${ms(percentile(durations, 90))}, max ${ms(Math.max(...durations))}`
  );
}

/** The time between calls made one after another (sorted by start), where none overlaps. */
function gaps(calls) {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  let idle = 0;
  let overlap = 0;
  for (let i = 1; i < sorted.length; i++) {
    const g = sorted[i].start - sorted[i - 1].end;
    if (g > 0) idle += g;
    else overlap++;
  }
  return { idle, overlap };
}

function summarizeOp(who, op, f, events, log) {
  const inOp = events.filter((e) => e.start >= f.start && e.start <= f.end);
  const role = new Map();
  for (const e of inOp.filter((e) => e.kind === "process")) role.set(e.pid, roleOf(e.argv));
  const rel = (t) => s(t - f.start);
  const row = { "command (whole CLI run)": `${s(f.end - f.start)} (load ${f.load})` };
  for (const [pid, r] of role) {
    if (r === "other") continue;
    const own = inOp.filter((e) => e.pid === pid && e.kind !== "process");
    const first = own.length ? Math.min(...own.map((e) => e.start)) : undefined;
    row[`${r} ${pid}: started at`] =
      `${rel(inOp.find((e) => e.pid === pid && e.kind === "process").start)}` +
      (first ? `, first gRPC call at ${rel(first)}` : "");
    const cpu = own.filter((e) => e.cpu !== undefined).map((e) => e.cpu);
    if (cpu.length) row[`${r} ${pid}: CPU used by its last answer`] = ms(Math.max(...cpu));
  }
  const byName = (kind) => {
    const groups = new Map();
    for (const e of inOp.filter((e) => e.kind === kind)) {
      groups.set(e.name, [...(groups.get(e.name) ?? []), e]);
    }
    return groups;
  };
  for (const [name, calls] of byName("call")) {
    if (name !== "RegisterResource") continue;
    row[`program → engine ${name}`] =
      `${spread(calls.map((c) => c.end - c.start))}; first sent ${rel(Math.min(...calls.map((c) => c.start)))}, ` +
      `last sent ${rel(Math.max(...calls.map((c) => c.start)))}, last answered ${rel(Math.max(...calls.map((c) => c.end)))}`;
  }
  const served = byName("serve");
  for (const [name, calls] of served) {
    // The plugin protocol's own calls take well under a millisecond: only said when they don't.
    if (calls.length === 1 && calls[0].end - calls[0].start < 5 && !/^(check|diff)$/.test(name)) {
      continue;
    }
    row[`engine → provider ${name}`] =
      `${spread(calls.map((c) => c.end - c.start))}; first ${rel(Math.min(...calls.map((c) => c.start)))}, ` +
      `last done ${rel(Math.max(...calls.map((c) => c.end)))}`;
  }
  // The engine's step generator checks and diffs one resource at a time: the provider's time
  // there and the engine's own time between the calls add up, resource after resource.
  const serial = [...(served.get("check") ?? []), ...(served.get("diff") ?? [])];
  if (serial.length) {
    const { idle, overlap } = gaps(serial);
    const busy = serial.reduce((a, c) => a + c.end - c.start, 0);
    row["check + diff, one at a time"] =
      `${s(Math.max(...serial.map((c) => c.end)) - Math.min(...serial.map((c) => c.start)))} from the first to the last: ` +
      `${s(busy)} in the provider, ${s(idle)} between calls` +
      (overlap ? ` (${overlap} overlapped)` : "");
  }
  for (const [name, calls] of byName("span")) {
    row[`inside: ${name}`] = spread(calls.map((c) => c.end - c.start));
  }
  const requests = log.filter((e) => e.arrivedAt >= f.start && e.arrivedAt <= f.end);
  if (requests.length) {
    const kinds = new Map();
    for (const e of requests) {
      const k = `${e.method} ${e.url.replace(/\/apps\/[^/]+/, "/apps/{id}")}${e.status === 429 ? " 429" : ""}`;
      kinds.set(k, [...(kinds.get(k) ?? []), e.at - e.arrivedAt]);
    }
    for (const [k, d] of kinds) row[`emulator: ${k}`] = spread(d);
    row["emulator: first request, last answer"] =
      `${rel(Math.min(...requests.map((e) => e.arrivedAt)))}, ${rel(Math.max(...requests.map((e) => e.at)))}`;
  }
  report(`engine trace, ${who}: pulumi ${op}`, row);
}

function summarizeTrace(who, dir, figures) {
  const events = readTrace(dir);
  for (const op of ["up", "preview", "destroy"]) {
    if (figures[op]) summarizeOp(who, op, figures[op], events, figures.log ?? []);
  }
}

module.exports = { summarizeTrace, readTrace };

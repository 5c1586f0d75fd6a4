// One measured side of the source suite in a fresh process, so its RSS over baseline is its own:
// `floor` (read + sha256 of every file, 8 at a time), `check` (the App's check), `create` (the
// App's create: pack + upload to the emulator + setup), or `create-floor` (one deflate pass over
// the same bytes, sent over loopback to the sink at BENCH_SINK_PORT). Prints {baseline, peak, ms}
// as JSON.
const { createHash } = require("node:crypto");
const { connect } = require("node:net");
const { createReadStream } = require("node:fs");
const { createDeflateRaw } = require("node:zlib");
const { once } = require("node:events");
const { mkdtemp, readdir, readFile, rm, writeFile } = require("node:fs/promises");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { providerHandlers } = require("../dist/provider/handlers");
const { providerText } = require("../dist/provider/provider-text");

/** The floor: list every file, read each whole and hash it, 8 files at a time. */
async function floor(root) {
  const files = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath ?? d.path, d.name));
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++];
      createHash("sha256")
        .update(await readFile(f))
        .digest("hex");
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * Create's floor: every file read once, in order, and all the bytes through one deflate stream
 * (one pass, no per-file set-up), the compressed bytes written to a loopback socket.
 */
async function createFloor(root) {
  const files = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath ?? d.path, d.name))
    .sort();
  const socket = connect(Number(process.env.BENCH_SINK_PORT), "127.0.0.1");
  await once(socket, "connect");
  const deflate = createDeflateRaw();
  deflate.pipe(socket);
  for (const f of files) {
    for await (const chunk of createReadStream(f, { highWaterMark: 1 << 18 })) {
      if (!deflate.write(chunk)) await once(deflate, "drain");
    }
  }
  deflate.end();
  await once(socket, "close");
}

async function main() {
  const [mode, root] = process.argv.slice(2);
  const app = providerHandlers("App");
  // A name of its own per process: a second create of the same name on the same emulator within
  // the hour is refused as a possible left-over of an interrupted deployment.
  const name = `bench-source-${process.pid}`;
  const inputs = { __provider: providerText("App"), source: root, name };
  const tiny = await mkdtemp(join(tmpdir(), "hosting-bench-tiny-"));
  await writeFile(join(tiny, "index.js"), "x");
  // Warm the code paths on a one-file source, so the baseline holds the loaded modules. Create
  // is measured alone: its check runs before the baseline.
  await app.check({}, { ...inputs, source: tiny });
  const checked = mode === "create" ? await app.check({}, inputs) : undefined;
  await settled();
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  const t = process.hrtime.bigint();
  let out;
  if (mode === "floor") await floor(root);
  else if (mode === "create-floor") await createFloor(root);
  else if (mode === "check") {
    const r = await app.check({}, inputs);
    if (r.failures.length) throw new Error(JSON.stringify(r.failures));
  } else out = await app.create(checked.inputs);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ baseline, peak, ms, id: out?.id }));
  await rm(tiny, { recursive: true, force: true });
  process.exit(0);
}

/** Until RSS stops moving (lazy compilation after the warm-up is not the measured side's). */
async function settled() {
  const seen = [];
  for (let i = 0; i < 300; i++) {
    seen.push(process.memoryUsage().rss);
    const last = seen.slice(-20);
    if (last.length === 20 && Math.max(...last) - Math.min(...last) < 1024 * 1024) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

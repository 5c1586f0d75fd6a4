// HostingClient overhead against raw undici, parse cost against JSON.parse, upload memory.
const { createWriteStream } = require("node:fs");
const { mkdtemp, rm } = require("node:fs/promises");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { randomBytes } = require("node:crypto");
const { Readable } = require("node:stream");
const { Pool } = require("undici");
const yazl = require("yazl");
const { spawn, spawnSync } = require("node:child_process");
const { createServer } = require("node:http");
const { HostingClient } = require("../dist/api");
const { parseBody } = require("../dist/api/parse");
const { appListEntrySchema } = require("../dist/api/schemas");
const { z } = require("zod");
const { median, percentile, spawnEmulator, seedApps, report } = require("./util");

async function overhead() {
  const emu = await spawnEmulator();
  await seedApps(emu.url, 20);
  const client = new HostingClient({ apiUrl: emu.url, token: emu.token });
  const pool = new Pool(emu.url);
  const raw = async () => {
    const res = await pool.request({
      method: "GET",
      path: "/apps",
      headers: { authorization: `Bearer ${emu.token}` },
    });
    return JSON.parse(await res.body.text());
  };
  const once = async (fn) => {
    const t = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const listApps = () => client.listApps();
  for (let i = 0; i < 500; i++) {
    await raw();
    await listApps();
  }
  // Alternate request by request (and who goes first), so that drift on the machine hits both
  // sides alike.
  const a = [];
  const b = [];
  for (let i = 0; i < 4000; i++) {
    const [first, second] = i % 2 ? [raw, listApps] : [listApps, raw];
    const t1 = await once(first);
    const t2 = await once(second);
    a.push(first === raw ? t1 : t2);
    b.push(first === raw ? t2 : t1);
  }
  report("per-request overhead: listApps() (20 apps) vs raw undici.request + JSON.parse", {
    "raw median ms": median(a).toFixed(3),
    "client median ms": median(b).toFixed(3),
    "client p95 ms": percentile(b, 95).toFixed(3),
    "ratio (target ≤ 1.15)": (median(b) / median(a)).toFixed(2),
  });
  await client.close();
  await pool.close();
  await emu.stop();
}

function parseCost() {
  const list = Array.from({ length: 10_000 }, (_, i) => ({
    app: {
      user_id: "6f1c4a52-2f0e-4c55-9d5a-0e5c1f9b7a11",
      id: `0000${i}-aaaa-4bbb-8ccc-dddddddddddd`,
      ram: 512,
      vcpu: 1,
      name: `app-${i}`,
      is_app: true,
      blocked_until: null,
      setup: true,
      created_at: "2026-01-01T00:00:00.000Z",
      last_setup_at: "2026-01-01T00:00:00.000Z",
      subdomain: `app-${i}`,
      entrypoint: "index.js",
      description: "",
      custom_command: "",
      custom_domain: "",
    },
    project_info: {
      ram: [1, 2, 3],
      vcpu: [0.1, 0.2],
      storage: 10,
      network_receive: [1],
      network_send: [1],
    },
  }));
  const text = JSON.stringify(list);
  const schema = z.array(appListEntrySchema);
  const run = (fn, n) => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const t = process.hrtime.bigint();
      fn();
      out.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return out;
  };
  run(() => parseBody("listApps", schema, JSON.parse(text)), 10);
  const a = [];
  const b = [];
  for (let round = 0; round < 10; round++) {
    a.push(...run(() => JSON.parse(text), 4));
    b.push(...run(() => parseBody("listApps", schema, JSON.parse(text)), 4));
  }
  report("parse + validate a 10,000-app list vs JSON.parse alone", {
    "body MB": (text.length / 1e6).toFixed(1),
    "JSON.parse median ms": median(a).toFixed(1),
    "JSON.parse + zod median ms": median(b).toFixed(1),
    "ratio (target ≤ 1.6)": (median(b) / median(a)).toFixed(2),
  });
}

async function uploadMemory() {
  const dir = await mkdtemp(join(tmpdir(), "hosting-bench-"));
  const zipPath = join(dir, "big.zip");
  const size = 200 * 1024 * 1024;
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify({ name: "big" })), "hosting.json");
  let left = size;
  const data = new Readable({
    read() {
      const n = Math.min(left, 1024 * 1024);
      left -= n;
      this.push(n > 0 ? randomBytes(n) : null);
    },
  });
  zip.addReadStream(data, "blob.bin", { compress: false, size });
  zip.end();
  await new Promise((r) => zip.outputStream.pipe(createWriteStream(zipPath)).on("close", r));
  const emu = await spawnEmulator(["--max-upload-bytes", String(300 * 1024 * 1024)]);
  try {
    const child = spawnSync(
      process.execPath,
      ["--expose-gc", join(__dirname, "upload-child.js"), emu.url, emu.token, zipPath],
      { encoding: "utf8" },
    );
    if (child.status !== 0) throw new Error(`upload failed: ${child.stderr}`);
    const { baseline, peak, ms } = JSON.parse(child.stdout);
    report("peak memory while uploading a 200 MB archive (fresh client process, RSS)", {
      "upload seconds": (ms / 1000).toFixed(2),
      "baseline MB": (baseline / 1048576).toFixed(1),
      "peak above baseline MB (target ≤ 32)": ((peak - baseline) / 1048576).toFixed(1),
    });
  } finally {
    await emu.stop();
  }
  await rm(dir, { recursive: true, force: true });
}

/** A local server streams 1 GiB (chunked, no length); the client must refuse it while streaming. */
async function hugeReplyMemory() {
  const GiB = 1024 ** 3;
  let written = 0;
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    let sent = 0;
    const pump = () => {
      while (sent < GiB && !res.destroyed) {
        sent += chunk.length;
        written = Math.max(written, sent);
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const child = spawn(process.execPath, ["--expose-gc", join(__dirname, "reply-child.js"), url]);
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  const status = await new Promise((r) => child.on("close", r));
  server.closeAllConnections();
  server.close();
  if (status !== 0) throw new Error(`reply child failed (${status})`);
  const { baseline, peak, ms, code } = JSON.parse(out);
  report("refusing a 1 GiB reply (default maxResponseBytes 32 MiB; fresh client process, RSS)", {
    "error code": code,
    "seconds to refuse": (ms / 1000).toFixed(2),
    "bytes the server got out before the hang-up MiB": (written / 1048576).toFixed(0),
    "baseline MB": (baseline / 1048576).toFixed(1),
    "peak above baseline MB (target < 64)": ((peak - baseline) / 1048576).toFixed(1),
  });
}

module.exports = async function clientBench() {
  if (process.env.BENCH_ONLY === "upload") return uploadMemory();
  await overhead();
  parseCost();
  await uploadMemory();
  await hugeReplyMemory();
};
module.exports.hugeReplyMemory = hugeReplyMemory;

// Refresh at scale through Pulumi's provider host, and the size of __provider per resource type.
const { spawn } = require("node:child_process");
const { join } = require("node:path");
const { createInterface } = require("node:readline");
const { mkdirSync, symlinkSync } = require("node:fs");
const pulumi = require("@pulumi/pulumi");
const { Pool } = require("undici");
const { thinProvider } = require("../dist/provider/thin-provider");
const { root, spawnEmulator, seedApps, report, median } = require("./util");

const PULUMI = join(root, "node_modules/@pulumi/pulumi");
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [PULUMI] }));
const provrpc = require(join(PULUMI, "proto/provider_grpc_pb"));
const provproto = require(join(PULUMI, "proto/provider_pb"));
const structproto = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [PULUMI] }),
);

async function serialized(kind) {
  const provider = thinProvider(kind);
  return (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}

async function startHost() {
  const cwd = join(root, "test/.work/stack");
  mkdirSync(join(cwd, "node_modules"), { recursive: true });
  try {
    symlinkSync(root, join(cwd, "node_modules/pulumi-hosting"), "dir");
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
  }
  const child = spawn(process.execPath, [join(PULUMI, "cmd/dynamic-provider"), "127.0.0.1:1"], {
    cwd,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((r) => createInterface({ input: child.stdout }).once("line", r));
  const client = new provrpc.ResourceProviderClient(
    `127.0.0.1:${port.trim()}`,
    grpc.credentials.createInsecure(),
  );
  const call = (m, req) =>
    new Promise((res, rej) => client[m](req, (e, v) => (e ? rej(e) : res(v))));
  return { child, client, call };
}

module.exports = async function providerBench() {
  const sizes = {};
  for (const kind of ["App", "CustomDomain", "AppWebAccess", "AppAnalytics"]) {
    sizes[`${kind} bytes`] = Buffer.byteLength(await serialized(kind));
  }
  report("__provider size per resource type (target < 1024)", sizes);

  const emu = await spawnEmulator();
  await seedApps(emu.url, 1000);
  const res = await fetch(`${emu.url}/__emulator/state`);
  const ids = (await res.json()).apps.map((a) => a.id);
  const host = await startHost();
  const conf = new provproto.ConfigureRequest();
  conf.setArgs(
    structproto.Struct.fromJavaScript({ "hosting:apiUrl": emu.url, "hosting:token": emu.token }),
  );
  await host.call("configure", conf);
  const provider = await serialized("App");

  const pool = new Pool(emu.url);
  const raw = [];
  for (let i = 0; i < 5; i++) {
    const t = Date.now();
    const r = await pool.request({
      method: "GET",
      path: "/apps",
      headers: { authorization: `Bearer ${emu.token}` },
    });
    await r.body.json();
    raw.push(Date.now() - t);
  }
  const rounds = [];
  let listCalls = 0;
  for (let round = 0; round < 3; round++) {
    await fetch(`${emu.url}/__emulator/stats`, { method: "DELETE" });
    await new Promise((r) => setTimeout(r, 1100)); // let the shared list expire between rounds
    const t = Date.now();
    await Promise.all(
      ids.map((id) => {
        const req = new provproto.ReadRequest();
        req.setId(id);
        req.setUrn(`urn:pulumi:bench::hosting::pulumi-nodejs:dynamic/hosting:App::${id}`);
        req.setProperties(structproto.Struct.fromJavaScript({ __provider: provider, name: "x" }));
        return host.call("read", req);
      }),
    );
    rounds.push(Date.now() - t);
    const stats = await (await fetch(`${emu.url}/__emulator/stats`)).json();
    listCalls = Math.max(listCalls, stats.requests["GET /apps"] ?? 0);
  }
  report("refresh: read 1,000 apps in parallel through the provider host", {
    "GET /apps calls (worst of 3 rounds)": listCalls,
    "wall ms (median of 3)": median(rounds),
    "one raw GET /apps ms (median of 5)": median(raw),
  });
  host.client.close();
  host.child.kill("SIGTERM");
  await pool.close();
  await emu.stop();
};

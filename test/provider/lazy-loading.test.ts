import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

/*
 * A program that only declares resources must not pay for the client's dependencies: they load
 * when a data source, the client or a provider handler is first used. Checked in a fresh process
 * on the built package, as a program would load it.
 */
const ROOT = join(__dirname, "..", "..");

/**
 * The files a fresh node process has loaded after `script` (the body of an async function: it
 * may await); each call is its own process.
 */
async function filesAfter(script: string): Promise<string[]> {
  const { stdout: out } = await promisify(execFile)(
    process.execPath,
    [
      "-e",
      `(async () => { ${script} })().then(() => console.log(JSON.stringify(Object.keys(require.cache))))`,
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  return JSON.parse(out) as string[];
}

/** The packages among `files`, by name. */
const packagesOf = (files: string[]) => [
  ...new Set(files.flatMap((k) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(k)?.[1] ?? [])),
];

/** The packages a fresh node process has loaded after `script`. */
const loadedAfter = (script: string) => filesAfter(script).then(packagesOf);

const HEAVY = ["undici", "zod", "form-data", "yazl", "yauzl", "fastest-levenshtein"];

// The processes run side by side; each test awaits its own.
const declaring = loadedAfter(
  'const h = require("pulumi-hosting"); new h.App("a", {source: ".", name: "a"}, {})',
);
const usingClient = loadedAfter(
  'const h = require("pulumi-hosting");' +
    'const c = new h.HostingClient({ apiUrl: "http://127.0.0.1:1", token: "a.b.c" });' +
    'if (!(c instanceof require("pulumi-hosting/client").HostingClient)) throw new Error("fake");' +
    'if (!(c instanceof h.HostingClient)) throw new Error("instanceof fails")',
);
// A host that only reads or deletes (a destroy, a refresh) never builds an upload.
const clientOf =
  'new h.HostingClient({ apiUrl: "http://127.0.0.1:1", token: "a.b.c", maxRetries: 0 })';
const listScript = `const h = require("pulumi-hosting"); await ${clientOf}.listApps().catch(() => {})`;
const listingFiles = filesAfter(listScript);
const listing = listingFiles.then(packagesOf);
const uploading = loadedAfter(
  `const h = require("pulumi-hosting"); const archivePath = require.resolve("pulumi-hosting/package.json");` +
    `await ${clientOf}.createApp({ archivePath, env: {} }).catch(() => {})`,
);
const readingData = loadedAfter(
  'const h = require("pulumi-hosting");' +
    // Without configuration it fails, after loading its implementation; the failure is not the point.
    "h.getRuntimeVersions({ language: 'node' }).catch(() => {})",
);
// What a provider host does in a preview of unchanged Apps: a check and a diff, no request.
const checking = loadedAfter(
  'const m = require("pulumi-hosting").providerHandlers("App");' +
    `const news = { source: ${JSON.stringify(join(ROOT, "examples", "basic", "app"))}, name: "a" };` +
    "const { inputs, failures } = await m.check({}, news);" +
    "if (!inputs.sourceHash) throw new Error(JSON.stringify(failures));" +
    'await m.diff("id", inputs, inputs)',
);
// A failure is reported by the test that awaits it.
for (const p of [declaring, usingClient, listing, listingFiles, uploading, readingData, checking])
  p.catch(() => undefined);

test('require("pulumi-hosting") loads none of undici, zod, form-data, yazl, yauzl or fastest-levenshtein', async () => {
  const loaded = await declaring;
  expect(loaded.filter((m) => HEAVY.includes(m))).toEqual([]);
});

test("the first use of the root's client loads undici, and it is the real class", async () => {
  expect(await usingClient).toContain("undici");
});

test("form-data loads with the first upload, not before (a destroy or a refresh never needs it)", async () => {
  expect(await listing).toEqual(expect.arrayContaining(["undici", "zod"]));
  expect(await listing).not.toContain("form-data");
  expect(await uploading).toContain("form-data");
});

// undici's package root loads all of it (111 files, ~110 ms before a host's first request).
test("a request loads undici's pool and its request API, not its fetch, WebSocket, cache or mocks", async () => {
  const undici = (await listingFiles).flatMap(
    (f) => /node_modules[\\/]undici[\\/](.*)$/.exec(f)?.[1] ?? [],
  );
  expect(undici.map((f) => f.replace(/\\/g, "/"))).toEqual(
    expect.arrayContaining(["lib/dispatcher/pool.js", "lib/api/api-request.js"]),
  );
  expect(undici.filter((f) => /^(index\.js|lib[\\/](web|mock|cache)[\\/])/.test(f))).toEqual([]);
});

test("the first data-source call loads what it needs", async () => {
  expect(await readingData).toContain("zod");
});

test("a provider host that only checks and diffs (a preview of unchanged Apps) loads no undici", async () => {
  expect(await checking).not.toContain("undici");
});

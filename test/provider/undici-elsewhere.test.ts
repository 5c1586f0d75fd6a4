import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { newApp, useEmulator } from "../helpers/emulator";

/*
 * The client loads undici's pool and request API from undici's own files, and undici's package
 * root where a release keeps them elsewhere. Node looks for a file missing from our undici in the
 * node_modules folders above it, where a user's other undici may be: checked on the built
 * package, installed below such an undici.
 */
const ROOT = join(__dirname, "..", "..");
const ctx = useEmulator();
const made: string[] = [];
let shop: string;
beforeAll(async () => {
  shop = (await newApp(ctx.client(), "shop")).id;
});
afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

/** An install of dist/ whose undici keeps its request API in lib/api/moved.js, below another undici. */
async function installBelowAnotherUndici(ownApi: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hosting-undici-"));
  made.push(dir);
  const pkg = join(dir, "node_modules", "pulumi-hosting");
  await cp(join(ROOT, "dist"), join(pkg, "dist"), { recursive: true });
  await cp(join(ROOT, "package.json"), join(pkg, "package.json"));
  const ours = join(pkg, "node_modules", "undici");
  await cp(join(ROOT, "node_modules", "undici"), ours, { recursive: true });
  await rename(join(ours, "lib", "api", "index.js"), join(ours, "lib", "api", "moved.js"));
  const index = await readFile(join(ours, "index.js"), "utf8");
  await writeFile(join(ours, "index.js"), index.replace("'./lib/api'", "'./lib/api/moved'"));
  if (ownApi) await writeFile(join(ours, "lib", "api", "index.js"), ownApi);
  const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  for (const dep of Object.keys(manifest.dependencies).filter((d) => d !== "undici")) {
    await symlink(join(ROOT, "node_modules", dep), join(dir, "node_modules", dep), "junction");
  }
  const other = join(dir, "node_modules", "undici");
  await mkdir(join(other, "lib", "api"), { recursive: true });
  await writeFile(join(other, "package.json"), '{ "name": "undici", "version": "6.0.0" }');
  const refuse = 'exports.request = () => { throw new Error("the request API of another undici") }';
  await writeFile(join(other, "lib", "api", "index.js"), refuse);
  return dir;
}

/** What `listApps` through the installed client sees, and the undici files it loaded. */
async function listFrom(dir: string) {
  const script =
    'const { HostingClient } = require("pulumi-hosting/client");' +
    "const c = new HostingClient({ apiUrl: process.env.URL, token: process.env.TOKEN, maxRetries: 0 });" +
    "c.listApps().then(async (apps) => { await c.close(); console.log(JSON.stringify({ apps: apps.map((a) => a.app.id)," +
    " files: Object.keys(require.cache).filter((f) => /undici/.test(f)) })) })";
  const env = { ...process.env, URL: ctx.emu.url, TOKEN: ctx.emu.issueToken() };
  const run = await promisify(execFile)(process.execPath, ["-e", script], { cwd: dir, env });
  return { stderr: run.stderr, ...(JSON.parse(run.stdout) as { apps: string[]; files: string[] }) };
}

test.each([
  ["moved out of lib/api", ""],
  ["lib/api without a request", "module.exports = {}"],
])(
  "undici's request API %s: the package root's, never another undici's above it",
  async (_, ownApi) => {
    const dir = await installBelowAnotherUndici(ownApi);
    const run = await listFrom(dir);
    expect(run.apps).toContain(shop);
    expect(run.stderr).toBe("");
    const other = join(dir, "node_modules", "undici") + "/";
    expect(run.files.filter((f) => f.startsWith(other))).toEqual([]);
    expect(run.files).toContain(
      join(dir, "node_modules", "pulumi-hosting", "node_modules", "undici", "index.js"),
    );
  },
);

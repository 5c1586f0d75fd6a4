import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ProviderHost } from "../helpers/provider-host";
import { ROOT } from "../helpers/pulumi-parts";

/*
 * The one-file plugin (scripts/plugin-bundle.js) where a user's machine may put it: below a
 * package.json that makes Node load extensionless files as ES modules; and what it carries
 * besides the code (the bundled packages' licenses). The other native tests run this same file.
 */

const PLUGIN = join(ROOT, "plugin", "pulumi-resource-hosting");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hosting-bundle-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('below a package.json with "type": "module" (a home folder\'s, say), it still starts and answers', async () => {
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  const plugins = join(dir, ".pulumi", "plugins", "resource-hosting-v0.0.0");
  mkdirSync(plugins, { recursive: true });
  copyFileSync(PLUGIN, join(plugins, "pulumi-resource-hosting"));
  const host = await ProviderHost.startNative(
    { PATH: dirname(process.execPath) },
    plugins,
    join(plugins, "pulumi-resource-hosting"),
  );
  try {
    expect(await host.getSchema()).toMatchObject({ name: "hosting" });
    expect(host.stderr()).toBe("");
  } finally {
    await host.stop();
  }
});

test("it ends with the license of every package bundled in it", () => {
  const text = readFileSync(PLUGIN, "utf8");
  const notices = text.slice(text.lastIndexOf("/*! Third-party software bundled in this file"));
  for (const name of ["@pulumi/pulumi", "@grpc/grpc-js", "undici", "zod", "google-protobuf"]) {
    const { version, license } = JSON.parse(
      readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8"),
    ) as { version: string; license: string };
    expect(notices).toContain(`== ${name}@${version} (${license})`);
  }
  // Left out (closure serialization only): not bundled, so not listed.
  expect(notices).not.toContain("== typescript@");
  expect(notices).not.toContain("== @npmcli/arborist@");
});

test("a module left out of the bundle loads, and names what was used of it when used", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const leftOut = require("../../scripts/plugin-left-out") as Record<string, unknown>;
  // What TypeScript's __importStar and esbuild's interop ask at load: answered, not thrown.
  expect(leftOut.__esModule).toBeUndefined();
  expect(Object.keys(leftOut)).toEqual([]);
  expect(() => leftOut.createSourceFile).toThrow(
    /`createSourceFile` of a module left out of the plugin's bundle/,
  );
});

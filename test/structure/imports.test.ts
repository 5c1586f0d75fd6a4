import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/*
 * The rooms of src/ and which way their imports go: data sources and the provider both stand on
 * the connection room (config, accounts, wire limits, client pool) and on shared/, never on each
 * other; the client package (src/api) knows nothing of Pulumi.
 */

const SRC = resolve(__dirname, "../../src");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? filesUnder(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );
}

/** Every module a file imports, requires or loads: relative ones as src-relative paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:from\s+|require\(|import\()\s*"([^"]+)"/g)].map((m) => m[1]);
  return specs.map((s) => (s.startsWith(".") ? relative(SRC, resolve(dirname(file), s)) : s));
}

/** `room` files that import something under any of `forbidden`, as "file -> import". */
function crossings(room: string, forbidden: string[]): string[] {
  return filesUnder(join(SRC, room)).flatMap((f) =>
    importsOf(f)
      .filter((i) => forbidden.some((x) => i === x || i.startsWith(`${x}/`)))
      .map((i) => `${relative(SRC, f)} -> ${i}`),
  );
}

test.each([
  ["data", ["provider"]],
  ["connection", ["provider", "data"]],
  ["shared", ["provider", "data", "connection"]],
  ["api", ["provider", "data", "connection", "shared", "@pulumi/pulumi"]],
])("src/%s imports nothing from %j", (room, forbidden) => {
  expect(crossings(room, forbidden as string[])).toEqual([]);
});

/*
 * Pulumi wording (`pulumi config …`, `hosting:*` keys) in the client package: none. Its errors
 * name its own options (`fix`); the provider puts the `hosting:*` advice in their place
 * (src/connection/error-hints.ts).
 */
test("the client package speaks no Pulumi: no `pulumi` advice or hosting:* keys", () => {
  // Any "pulumi" but the package's own name (pulumi-hosting), and any hosting:<key>.
  const worded = filesUnder(join(SRC, "api"))
    .filter((f) => /\bpulumi\b(?!-hosting)|\bhosting:[a-zA-Z]/i.test(readFileSync(f, "utf8")))
    .map((f) => relative(SRC, f));
  expect(worded).toEqual([]);
});

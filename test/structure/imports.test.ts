import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/*
 * The rooms of src/ and which way their imports go. Each room stands only on the rooms below it:
 *
 *   native                      the native plugin: the resources and data sources served over
 *                               Pulumi's provider protocol (a program of its own)
 *   provider, data              resources and data sources (a program's side)
 *   inputs, shared, connection  what those two share: input checks (zod); small light helpers;
 *                               config, accounts and the clients
 *   api, emulator               the wire: the client package, and the model of the service
 *   base                        small tools importing nothing
 *
 * A room reaches another only through its door (index.ts; the api room also has wire.ts, which
 * does not load the client), and no file imports itself back through others, `import type`
 * included. src/index.ts, the package's root, picks what loads when, so it may open any file;
 * no room imports it.
 */

const SRC = resolve(__dirname, "../../src");

const BELOW: Record<string, string[]> = {
  base: [],
  api: ["base"],
  emulator: ["base", "api"],
  inputs: ["base", "api"],
  shared: ["base", "api"],
  connection: ["base", "api"],
  data: ["base", "api", "inputs", "shared", "connection"],
  provider: ["base", "api", "inputs", "shared", "connection"],
  native: ["base", "api", "inputs", "shared", "connection", "data", "provider"],
};

/** The files another room may import, by room (src-relative, without `.ts`). */
const DOORS: Record<string, string[]> = {
  base: ["base"],
  api: ["api", "api/wire"],
  inputs: ["inputs"],
  shared: ["shared"],
  connection: ["connection"],
  data: ["data"],
  provider: ["provider"],
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? filesUnder(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );
}

/** Every module a file imports, re-exports, requires or loads (`import type` and `import()` too). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from\s+|require\(|import\()\s*"([^"]+)"/g)].map((m) => m[1]);
}

/** A relative import as a src-relative module name (`api/wire`; a folder's index as the folder). */
const target = (file: string, spec: string) => relative(SRC, resolve(dirname(file), spec));

/** The src/ modules a file imports, by name (the package root is ""). */
function srcImportsOf(file: string): string[] {
  return importsOf(file)
    .filter((s) => s.startsWith("."))
    .map((s) => target(file, s))
    .filter((t) => !t.startsWith(".."));
}

/** The file a src-relative module name is. */
function fileOf(name: string): string {
  const path = join(SRC, name);
  return existsSync(`${path}.ts`) ? `${path}.ts` : join(path, "index.ts");
}

const roomOf = (name: string) => (name.includes("/") ? name.split("/")[0] : undefined);

const files = filesUnder(SRC);

test("every room of src/ is listed here", () => {
  const rooms = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory());
  expect(rooms.map((e) => e.name).sort()).toEqual(Object.keys(BELOW).sort());
});

test("each room imports only the rooms below it", () => {
  const wrong = files.flatMap((f) => {
    const room = roomOf(relative(SRC, f));
    if (!room) return [];
    return srcImportsOf(f)
      .map((t) => roomOf(t) ?? (t || "the package root"))
      .filter((r) => r !== room && !BELOW[room].includes(r))
      .map(
        (r) =>
          `${relative(SRC, f)} imports from ${r}, which is not below ${room} ` +
          `(${room} may use: ${BELOW[room].join(", ") || "nothing"}); move the shared piece down`,
      );
  });
  expect(wrong).toEqual([]);
});

test("a room reaches another only through its door", () => {
  const wrong = files.flatMap((f) => {
    const room = roomOf(relative(SRC, f));
    if (!room) return [];
    return srcImportsOf(f)
      .filter((t) => roomOf(t) !== room && !(DOORS[roomOf(t) ?? t] ?? []).includes(t))
      .map((t) => {
        const doors = DOORS[roomOf(t) ?? t] ?? [];
        return doors.length > 0
          ? `${relative(SRC, f)} imports ${t}: import it from ${doors.join(" or ")} instead, ` +
              "exporting it there if it is missing"
          : `${relative(SRC, f)} imports ${t}: no other room may import ${roomOf(t) ?? (t || "the package root")}`;
      });
  });
  expect(wrong).toEqual([]);
});

test("the api room loads no Pulumi, and base imports no package", () => {
  const wrong = files.flatMap((f) => {
    const room = roomOf(relative(SRC, f));
    return importsOf(f)
      .filter(
        (s) =>
          (room === "api" && s.startsWith("@pulumi/")) ||
          (room === "base" && !s.startsWith(".") && !s.startsWith("node:")),
      )
      .map((s) => `${relative(SRC, f)} -> ${s}`);
  });
  expect(wrong).toEqual([]);
});

test("no import circle between files of src/ (import type counts)", () => {
  const edges = new Map(
    files.map((f) => [
      f,
      importsOf(f)
        .filter((s) => s.startsWith("."))
        .map((s) => target(f, s))
        .filter((t) => !t.startsWith(".."))
        .map(fileOf),
    ]),
  );
  const done = new Set<string>();
  const circles: string[] = [];
  const walk = (f: string, path: string[]) => {
    if (path.includes(f)) {
      const circle = [...path.slice(path.indexOf(f)), f].map((p) => relative(SRC, p));
      circles.push(
        `${circle.join(" -> ")}: break it by moving what one of them needs from the next into ` +
          "a file below both",
      );
      return;
    }
    if (done.has(f)) return;
    for (const next of edges.get(f) ?? []) walk(next, [...path, f]);
    done.add(f);
  };
  for (const f of files) walk(f, []);
  expect(circles).toEqual([]);
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

/*
 * One lazy-loading mechanism (CONTRIBUTING, "Lazy loading"): a module loaded later than its
 * importer is loaded through `once` of src/base/lazy.ts. A `require` at a module's top level
 * loads with the module (an untyped package, a JSON file) and is no lazy load; a `require` inside
 * a function or a dynamic `import()` anywhere else would be a second mechanism.
 */

/** Whether `fn` is the loader handed to `once(...)`. */
const isOnceLoader = (fn: ts.Node) =>
  ts.isCallExpression(fn.parent) &&
  ts.isIdentifier(fn.parent.expression) &&
  fn.parent.expression.text === "once" &&
  fn.parent.arguments[0] === fn;

/** Each deferred load in `text` not made through `once`, as `name:line what`. */
function strayLoads(name: string, text: string): string[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const stray: string[] = [];
  const at = (n: ts.Node, what: string) => {
    const line = source.getLineAndCharacterOfPosition(n.getStart()).line + 1;
    stray.push(`${name}:${line} ${what}`);
  };
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      if (n.expression.kind === ts.SyntaxKind.ImportKeyword) at(n, "import()");
      if (ts.isIdentifier(n.expression) && n.expression.text === "require") {
        let fn: ts.Node | undefined = n.parent;
        while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
        if (fn && !isOnceLoader(fn)) at(n, "require() inside a function");
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return stray;
}

test("every deferred load in src/ goes through base/lazy.ts's once", () => {
  const stray = filesUnder(SRC).flatMap((f) =>
    strayLoads(relative(SRC, f), readFileSync(f, "utf8")),
  );
  expect(stray).toEqual([]);
});

test("the check finds a require inside a function and a dynamic import, and passes once", () => {
  const check = (code: string) => strayLoads("probe.ts", code);
  expect(check("function f() {\n  return require('x');\n}")).toEqual([
    "probe.ts:2 require() inside a function",
  ]);
  expect(check("async function f() { await import('x'); }")).toEqual(["probe.ts:1 import()"]);
  expect(check("const m = once(() => require('x'));")).toEqual([]);
  expect(check("const m = require('x');")).toEqual([]);
});

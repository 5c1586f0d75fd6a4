import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

/*
 * One lazy-loading mechanism (CONTRIBUTING, "Lazy loading"): a module loaded later than its
 * importer is loaded through `once` of src/base/lazy.ts. A `require` at a module's top level
 * loads with the module (an untyped package, a JSON file) and is no lazy load; a `require` inside
 * a function or a dynamic `import()` anywhere else would be a second mechanism.
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

import { makeZip } from "../helpers/zip";
import { tree } from "../helpers/source-trees";
import { useInProcessProvider } from "../helpers/provider-env";

/*
 * check() holds `entrypoint` to the files the source uploads, judged from the listing the hash
 * is made from: a file that is missing, misspelt, in another folder or left out by the ignore
 * rules fails the check naming `entrypoint`, the file and the nearest uploaded file, for a
 * folder and for a .zip, before any request. An entrypoint not known yet (an Output during a
 * preview) is judged at `up`, when it is.
 */

const env = useInProcessProvider({ setupDelayMs: 0 });
/** Pulumi's wire value of an unknown (an Output not resolved during a preview). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const APP = {
  "server.js": "require('http').createServer((q, s) => s.end('hi')).listen(8080);\n",
  "src/worker.js": "module.exports = 1;\n",
  "dist/main.js": "built\n",
  "package.json": "{}\n",
  ".hostingignore": "dist/\n",
};

/** check()'s failures for an App of this source and entrypoint, by property. */
async function failures(source: string, entrypoint: unknown) {
  const inputs = await env.inputs("App", { source, name: "ep", entrypoint });
  const r = await env.host.check(env.urn("App", "ep"), {}, inputs);
  return { byProperty: Object.fromEntries(r.failures.map((f) => [f.property, f.reason])), r };
}

beforeEach(() => env.emu.resetStats());
afterEach(() => expect(env.emu.stats().total).toBe(0));

describe.each([
  ["a folder", () => tree(APP)],
  ["a .zip", () => makeZip(APP)],
])("%s source", (_kind, make) => {
  let source: string;
  beforeAll(async () => {
    source = await make();
  });

  test.each([["server.js"], ["./server.js"], ["src/worker.js"]])(
    "the entrypoint %j, a file of the source, passes and is hashed",
    async (entrypoint) => {
      const { byProperty, r } = await failures(source, entrypoint);
      expect(byProperty).toEqual({});
      expect(r.inputs.sourceHash).toMatch(/^[0-9a-f]{64}$/);
    },
  );

  test("a misspelt entrypoint names the file and the nearest one", async () => {
    expect((await failures(source, "sever.js")).byProperty).toEqual({
      entrypoint: `entrypoint "sever.js" is not a file of source ${JSON.stringify(source)}: did you mean "server.js"?`,
    });
  });

  test("a misspelt entrypoint in a folder names the nearest path", async () => {
    expect((await failures(source, "src/wroker.js")).byProperty.entrypoint).toBe(
      `entrypoint "src/wroker.js" is not a file of source ${JSON.stringify(source)}: did you mean "src/worker.js"?`,
    );
  });

  test("an entrypoint without its folder names the file of that name in a folder", async () => {
    expect((await failures(source, "worker.js")).byProperty.entrypoint).toMatch(
      /^entrypoint "worker.js" is not a file of source .*: did you mean "src\/worker.js"\?$/,
    );
  });

  test("an entrypoint near no file says what entrypoint is", async () => {
    expect((await failures(source, "app/main.py")).byProperty.entrypoint).toBe(
      `entrypoint "app/main.py" is not a file of source ${JSON.stringify(source)}; give the ` +
        "file the runtime starts, relative to the source's root, or omit entrypoint for the " +
        "runtime's default",
    );
  });

  test("an entrypoint .hostingignore leaves out is refused, naming .hostingignore", async () => {
    expect((await failures(source, "dist/main.js")).byProperty.entrypoint).toBe(
      'entrypoint "dist/main.js" is left out of the upload by .hostingignore; remove the ' +
        "pattern that matches it, or point entrypoint at a file that is uploaded",
    );
  });

  test("an entrypoint under node_modules is never uploaded", async () => {
    expect((await failures(source, "node_modules/x/index.js")).byProperty.entrypoint).toBe(
      'entrypoint "node_modules/x/index.js" is never uploaded (node_modules and .git are left ' +
        "out of every source); point entrypoint at a file of the app",
    );
  });

  test("paths out of the root, and the App's own hosting.json, are not files of the source", async () => {
    for (const entrypoint of ["../server.js", "/server.js", "hosting.json"]) {
      expect((await failures(source, entrypoint)).byProperty.entrypoint).toMatch(
        /^entrypoint ".*" is not a file of source /,
      );
    }
  });
});

test("an entrypoint unknown at preview is left to up, where it is judged", async () => {
  const source = await tree(APP);
  const preview = await failures(source, UNKNOWN);
  expect(preview.byProperty).toEqual({});
  expect(preview.r.inputs.sourceHash).toBe(UNKNOWN);
  expect((await failures(source, "sever.js")).byProperty.entrypoint).toMatch(
    /did you mean "server.js"\?$/,
  );
});

import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runCommand } from "../helpers/run-command";

/*
 * AppArgs, the App's outputs, AppManifest, the app reply's schema and AppInfo are written from
 * the field declaration and AppSummary by `npm run declarations` (scripts/declarations.js) and
 * committed: what is committed must be what they give, or a user's hover text and the checks
 * would say something the declaration does not.
 */

const ROOT = resolve(__dirname, "../..");
const READ = ["src/provider/app/fields.ts", "src/api/types.ts", "src/base/camel.ts"];
const WRITTEN = [
  "src/provider/app/resource.ts",
  "src/api/manifest.ts",
  "src/api/schemas.ts",
  "src/data/results.ts",
];

async function declarations(dir: string, ...args: string[]) {
  const { code, stderr } = await runCommand(
    process.execPath,
    ["scripts/declarations.js", ...args],
    dir,
  );
  return { code, stderr };
}

test("the committed declarations are what the field declaration and AppSummary give", async () => {
  const { code, stderr } = await declarations(ROOT, "--check");
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
}, 60_000);

describe("in a copy", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "declarations-"));
    for (const file of [...READ, ...WRITTEN, "scripts/declarations.js", ".prettierrc.json"]) {
      cpSync(join(ROOT, file), join(dir, file));
    }
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const edit = (file: string, from: string, to: string) => {
    const text = readFileSync(join(dir, file), "utf8");
    expect(text.split(from)).toHaveLength(2);
    writeFileSync(join(dir, file), text.replace(from, to));
  };

  test("a changed doc is found stale, then written into the hover text", async () => {
    edit("src/provider/app/fields.ts", "Free text, at most 500", "Free words, at most 500");
    const stale = await declarations(dir, "--check");
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("src/provider/app/resource.ts");
    expect(stale.stderr).not.toContain("src/api/");
    expect((await declarations(dir)).code).toBe(0);
    expect(readFileSync(join(dir, "src/provider/app/resource.ts"), "utf8")).toContain(
      "  /** Free words, at most 500 characters. Changing it replaces the app. */\n" +
        "  description?: pulumi.Input<string>;\n",
    );
    expect(await declarations(dir, "--check")).toEqual({ code: 0, stderr: "" });
  }, 60_000);

  test("a wire field's doc reaches AppInfo whole: its links and its tags", async () => {
    edit(
      "src/api/types.ts",
      "  /** Always true for an app. */\n  is_app",
      "  /**\n   * Always true for an app of {@link AppListEntry}.\n   * @deprecated Read `setup`.\n   */\n  is_app",
    );
    expect((await declarations(dir)).code).toBe(0);
    expect(readFileSync(join(dir, "src/data/results.ts"), "utf8")).toContain(
      "  /**\n   * Always true for an app of {@link AppListEntry}.\n   * @deprecated Read `setup`.\n" +
        "   */\n  isApp?: boolean;\n",
    );
  }, 60_000);

  test("a field read from a key AppSummary lacks is refused, naming where to add it", async () => {
    edit("src/provider/app/fields.ts", 'from: "custom_command"', 'from: "start_command"');
    const refused = await declarations(dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'appFields.customCommand is read from "start_command": add start_command to AppSummary ' +
        "(src/api/types.ts)",
    );
    // Nothing is written from a declaration that disagrees with the wire type.
    for (const file of WRITTEN) {
      expect(readFileSync(join(dir, file), "utf8")).toBe(readFileSync(join(ROOT, file), "utf8"));
    }
  }, 60_000);
});

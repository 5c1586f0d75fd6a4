import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { appHandler } from "../../src/provider/app/handler";
import { runCommand as run } from "../helpers/run-command";

/*
 * A field is declared once. This follows CONTRIBUTING's recipe "Add a field to a resource" in a
 * copy of src/: it declares an App input `region` (sent in the manifest, reported by the
 * service, deciding the created app), then runs `npm run declarations` and the compiler, writes
 * each place either names, and runs both again until they pass. The places named must be exactly
 * the files the recipe lists, and each must exist; what the declarations wrote must hold the
 * field with its doc; then the copy runs, against its own emulator, to show what
 * followed from the declaration without being written: prepareReads, the create's key, what a
 * recovered create compares, the check rule, the manifest, the input a refusal names, the
 * outputs, what `pulumi import` reads, the emulator's app list and a state file's app written
 * before.
 */

const ROOT = resolve(__dirname, "../..");

/** The backticked src/ files of the recipe's section, in order. */
function recipeFiles(): string[] {
  const text = readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8");
  const start = text.indexOf("### Add a field to a resource");
  const end = text.indexOf("\n### ", start + 1);
  if (start < 0 || end < 0) throw new Error('CONTRIBUTING.md has no "Add a field to a resource"');
  const files = [...text.slice(start, end).matchAll(/`(src\/[\w/.-]+\.ts)`/g)].map((m) => m[1]);
  return [...new Set(files)];
}

const REGION_DOC =
  "The region the app runs in, e.g. `eu-west-1`; the platform's default when omitted. Changing " +
  "it replaces the app.";

/** An addition to a file of the copy: `text` right before or right after an anchor. */
type Addition = { before: string; text: string } | { after: string; text: string };

/** What the recipe writes in each file, for `region`. */
const WRITES: Record<string, Addition[]> = {
  // Step 1, the declaration: `npm run declarations` writes the Args, outputs and manifest from it.
  "src/provider/app/fields.ts": [
    {
      before: "  setupTimeoutSeconds: {\n",
      text:
        "  region: {\n" +
        `    doc: ${JSON.stringify(REGION_DOC)},\n` +
        '    outputDoc: "The region the app runs in, as the platform reports it.",\n' +
        '    type: "string",\n' +
        '    input: "optional",\n' +
        "    decidesApp: true,\n" +
        '    wire: "region",\n' +
        "    replaces: true,\n" +
        "    platformDefault: true,\n" +
        '    from: "region",\n' +
        '    text: { empty: "region must not be empty; omit it", max: 50 },\n' +
        "  },\n",
    },
  ],
  // The wire type the spec defines: the reply's schema and AppInfo are written from it.
  "src/api/types.ts": [
    {
      after: "  custom_command?: string | null;\n",
      text: "  /** The region the app runs in. */\n  region?: string | null;\n",
    },
  ],
  // The record keeps it, with the platform's default: a new app's, and a state file's record
  // written before. The emulator's manifest and state file rules follow from the default's type
  // (setting-rules.ts), and routes/apps.ts reports it.
  "src/emulator/world.ts": [
    {
      after: "  custom_command: string;\n",
      text: "  /** The region it runs in. */\n  region: string;\n",
    },
    { after: '  custom_command: "",\n', text: '  region: "eu-west-1",\n' },
  ],
};

/** Writes `file`'s part of the recipe into the copy. */
function write(dir: string, file: string): void {
  const path = join(dir, file);
  let text = readFileSync(path, "utf8");
  for (const add of WRITES[file]) {
    const anchor = "before" in add ? add.before : add.after;
    const found = text.indexOf(anchor);
    if (found < 0 || text.indexOf(anchor, found + 1) >= 0) {
      throw new Error(`${file}: the anchor ${JSON.stringify(anchor)} is not there exactly once`);
    }
    const at = "before" in add ? found : found + anchor.length;
    text = text.slice(0, at) + add.text + text.slice(at);
  }
  writeFileSync(path, text);
}

/** The compiler's errors: for each, the place it names, else the file it is in. */
function placesNamed(output: string): Array<{ place: string; error: string }> {
  const errors = output.split(/\n(?=\S)/).filter((e) => /^src\/\S+\(\d+,\d+\): error TS/.test(e));
  return errors.map((error) => ({
    place: placeIn(error) ?? error.slice(0, error.indexOf("(")),
    error,
  }));
}

/** The file a message names: "add region to AppSummary (src/api/types.ts)". */
function placeIn(message: string): string | undefined {
  return /\((src\/[\w/.-]+\.ts)\)/.exec(message)?.[1];
}

/** Runs in the compiled copy: what followed from the declaration alone. */
const PROBE = `
const { mkdtempSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const D = join(process.cwd(), "dist");
const { appHandler, manifestOf } = require(join(D, "provider/app/handler"));
const { appInputSchema } = require(join(D, "provider/app/schema"));
const { createKey } = require(join(D, "provider/app/create-key"));
const { mayBeMadeFrom } = require(join(D, "provider/app/created-shape"));
const { importReaders } = require(join(D, "native/import-read"));
const { startEmulator } = require(join(D, "emulator"));
const { worldSchema } = require(join(D, "emulator/state-schema"));
const { HostingClient, UnprocessableEntityError } = require(join(D, "api"));
const { namingAppInput } = require(join(D, "provider/app/refusal"));

(async () => {
  const origin = { account: "acct-digest-1", urn: "urn:pulumi:dev::shop::pulumi-nodejs:dynamic/hosting:App::web" };
  const out = {
    prepareReads: appHandler.prepareReads,
    replaceOnChange: appHandler.replaceOnChange,
    keyWithout: createKey(origin, { name: "web" }, 0),
    keysDiffer: createKey(origin, { name: "web", region: "eu-west-1" }, 0) !==
      createKey(origin, { name: "web", region: "us-east-2" }, 0),
    otherRegionTaken: mayBeMadeFrom({ id: "a", name: "web", region: "eu-west-1" }, { name: "web", region: "us-east-2" }),
    sameRegionTaken: mayBeMadeFrom({ id: "a", name: "web", region: "us-east-2" }, { name: "web", region: "us-east-2" }),
    manifest: manifestOf(appInputSchema.parse({ source: "./app", name: "web", region: "us-east-2" })),
  };
  const problem = (region) =>
    appInputSchema.safeParse({ source: "./app", name: "web", region }).error?.issues[0].message;
  out.emptyRegion = problem("");
  out.longRegion = problem("x".repeat(51));
  const refused = (bodyMessage) =>
    namingAppInput(new UnprocessableEntityError({ status: 422, bodyMessage, method: "POST", path: "/apps" })).property;
  out.refusedQuoted = refused("hosting.json: region: Expected string, received number");
  out.refusedWords = refused("region mars-1 is not offered");
  const emu = await startEmulator({ seed: "region", setupDelayMs: 0 });
  const client = new HostingClient({ apiUrl: emu.url, token: emu.issueToken() });
  try {
    const source = mkdtempSync(join(require("node:os").tmpdir(), "region-app-"));
    writeFileSync(join(source, "index.js"), "console.log('hi');\\n");
    const inputs = appInputSchema.parse({ source, name: "web", region: "us-east-2" });
    const made = await appHandler.create(client, await appHandler.prepare(inputs, {}));
    out.createdRegion = made.outs.region;
    out.imported = (await importReaders.App.find(client, made.id)).inputs;
    out.listedRegion = (await client.listApps()).find((a) => a.app.id === made.id).app.region;
    // A state file written before the record kept a region: its app gets the platform's default.
    const old = JSON.parse(JSON.stringify(emu.world));
    for (const app of old.apps) delete app.region;
    out.oldStateRegion = worldSchema.parse(old).apps.map((a) => a.region);
  } finally {
    await client.close();
    await emu.stop();
  }
  // Progress lines go to stdout too: the answer is the last line.
  process.stdout.write("\\nprobe: " + JSON.stringify(out) + "\\n");
})().catch((err) => { console.error(err); process.exit(1); });
`;

test("an App input declared once: the recipe's files are named, the rest is written or follows", async () => {
  const recipe = recipeFiles();
  for (const file of recipe)
    expect([file, readFileSync(join(ROOT, file)).length > 0]).toEqual([file, true]);
  const dir = mkdtempSync(join(tmpdir(), "field-recipe-"));
  try {
    cpSync(join(ROOT, "src"), join(dir, "src"), { recursive: true });
    for (const file of ["scripts/declarations.js", ".prettierrc.json"]) {
      cpSync(join(ROOT, file), join(dir, file));
    }
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    // The client reads its version from package.json, two levels above dist/api.
    cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
    const base = JSON.parse(readFileSync(join(ROOT, "tsconfig.json"), "utf8")) as {
      compilerOptions: Record<string, unknown>;
    };
    const options = {
      ...base.compilerOptions,
      rootDir: "src",
      outDir: "dist",
      types: ["node"],
      incremental: true,
      tsBuildInfoFile: "tsbuildinfo",
      pretty: false,
    };
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: options, include: ["src"] }),
    );
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");

    // Step 1: the declaration. Then write the declarations and compile, and write what either
    // names, until both pass.
    write(dir, "src/provider/app/fields.ts");
    const written = ["src/provider/app/fields.ts"];
    const rounds: string[][] = [];
    for (;;) {
      const declared = await run(process.execPath, ["scripts/declarations.js"], dir);
      const compiled =
        declared.code === 0
          ? await run(process.execPath, [tsc, "-p", ".", "--noEmit"], dir)
          : { code: 1, stdout: "" };
      if (compiled.code === 0) break;
      const named =
        declared.code === 0
          ? placesNamed(compiled.stdout)
          : [{ place: placeIn(declared.stderr) ?? declared.stderr, error: declared.stderr }];
      expect(named.length).toBeGreaterThan(0);
      const fresh = [...new Set(named.map((n) => n.place))].filter((p) => !written.includes(p));
      rounds.push(fresh);
      console.log(`round ${rounds.length}: ${named.map((n) => n.error).join("\n")}`);
      if (fresh.length === 0 || rounds.length > 6) {
        throw new Error(`nothing new is named to write:\n${declared.stderr}${compiled.stdout}`);
      }
      for (const place of fresh) {
        // A place the recipe does not list: the recipe is missing a step.
        expect({ place, inRecipe: recipe.includes(place) }).toEqual({ place, inRecipe: true });
        write(dir, place);
        written.push(place);
      }
    }
    console.log(`places named, round by round: ${JSON.stringify(rounds)}`);
    // Every file the recipe lists was named (or is the declaration), and nothing else was written.
    expect([...written].sort()).toEqual([...recipe].sort());
    // Written from the declaration and the wire type, with the declared doc (the hover text).
    const copied = (file: string) => readFileSync(join(dir, file), "utf8");
    // The hover text: the comment right above the property holds the whole declared doc.
    const resource = copied("src/provider/app/resource.ts");
    const property = resource.indexOf("  region?: pulumi.Input<string>;\n");
    const comment = resource.slice(resource.lastIndexOf("/**", property), property);
    expect(
      comment
        .replace(/^\/\*\*|\*\/\s*$|\n\s*\*(?!\/)/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    ).toBe(REGION_DOC);
    expect(copied("src/provider/app/resource.ts")).toContain("  region?: pulumi.Input<string>;\n");
    expect(copied("src/provider/app/resource.ts")).toContain(
      "  /** The region the app runs in, as the platform reports it. */\n" +
        "  declare readonly region: pulumi.Output<string>;\n",
    );
    expect(copied("src/api/manifest.ts")).toContain("  region?: string;\n");
    expect(copied("src/api/schemas.ts")).toContain("  region: z.string().nullable().optional(),\n");
    expect(copied("src/data/results.ts")).toContain(
      "  /** The region the app runs in. */\n  region?: string | null;\n",
    );

    // Emitted once it compiles (the checked program is reused).
    expect((await run(process.execPath, [tsc, "-p", "."], dir)).code).toBe(0);
    const probe = await run(process.execPath, ["-e", PROBE], dir);
    const answer = /^probe: (.*)$/m.exec(probe.stdout)?.[1];
    if (probe.code !== 0 || answer === undefined) {
      throw new Error(`the compiled copy failed:\n${probe.stdout}\n${probe.stderr}`);
    }
    const got = JSON.parse(answer) as Record<string, unknown>;
    expect(got.prepareReads).toEqual([...(appHandler.prepareReads ?? []), "region"]);
    expect(got.replaceOnChange).toContain("region");
    // The key of a create without a region is the one sent before (create-key.test.ts); one
    // that differs only in region is another key.
    expect(got.keyWithout).toBe(
      "ph1-2a13f6691499f94be577f4ea0f5ef931ce85a19bf22b67f78c291231389c8a6d",
    );
    expect(got.keysDiffer).toBe(true);
    expect({ other: got.otherRegionTaken, same: got.sameRegionTaken }).toEqual({
      other: false,
      same: true,
    });
    expect(got.manifest).toEqual({ name: "web", region: "us-east-2" });
    // Its check rule, from the declared limits.
    expect({ empty: got.emptyRegion, long: got.longRegion }).toEqual({
      empty: "region must not be empty; omit it",
      long: "region must be at most 50 characters (settings are size-limited)",
    });
    // A refusal about it names the input, by its wire name, with no words written for it.
    expect({ quoted: got.refusedQuoted, words: got.refusedWords }).toEqual({
      quoted: "region",
      words: "region",
    });
    // Through the copy's own emulator: sent in the manifest, stored, reported, read back.
    expect(got.createdRegion).toBe("us-east-2");
    expect(got.imported).toMatchObject({ name: "web", region: "us-east-2" });
    expect(got.listedRegion).toBe("us-east-2");
    expect(got.oldStateRegion).toEqual(["eu-west-1"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 600_000);

import type { AppSummary } from "../../src/api/wire";
import { mayBeMadeFrom, type CreatedShape } from "../../src/provider/app/created-shape";

/*
 * Which app of the account's list a create may take as its own (an older app a service answers
 * a key with, or one left by an interrupted create): only one that agrees with every setting the
 * create sets and the list shows. Taking one that differs in any would put an app of other
 * settings, maybe another stack's, in this stack. In-process, no request.
 */

/** The settings whose names are alike in the inputs and on the wire. */
const same = {
  name: "web-3f9a1c2",
  ram: 512,
  vcpu: 1,
  entrypoint: "index.js",
  subdomain: "web-3f9a1c2",
  description: "the shop",
};

/** A create's shape, every setting the list shows set. */
const shape: CreatedShape = {
  ...same,
  customCommand: "node index.js",
  env: { A: "1" },
  sourceHash: "1".repeat(64),
};

/** The same app as the list reports it (wire names, and fields no input has). */
const listed: AppSummary = {
  ...same,
  id: "a1",
  user_id: "u1",
  custom_command: "node index.js",
  is_app: true,
  setup: true,
  created_at: "2026-11-28T00:00:00Z",
  custom_domain: null,
};

test("an app that agrees with every setting the list shows may be the create's", () => {
  expect(mayBeMadeFrom(listed, shape)).toBe(true);
  // env and the source are not in the list: they cannot tell apps apart, so they are not asked.
  expect(mayBeMadeFrom(listed, { ...shape, env: { B: "2" }, sourceHash: "2".repeat(64) })).toBe(
    true,
  );
});

test("an app that differs in any one shown setting is not the create's", () => {
  const differing: Array<[string, Partial<AppSummary>]> = [
    ["name", { name: "web-other" }],
    ["ram", { ram: 1024 }],
    ["vcpu", { vcpu: 2 }],
    ["entrypoint", { entrypoint: "main.js" }],
    ["subdomain", { subdomain: "web-other" }],
    ["description", { description: "another" }],
    ["customCommand", { custom_command: "node main.js" }],
    // The service reports a setting as unset (null) that the create sets.
    ["entrypoint (null)", { entrypoint: null }],
    // Or leaves it out: nothing says it is this create's.
    ["name (absent)", { name: undefined }],
  ];
  const taken = differing.filter(([, change]) => mayBeMadeFrom({ ...listed, ...change }, shape));
  expect(taken.map(([setting]) => setting)).toEqual([]);
  // A reply without the key at all.
  const { ram: _ram, ...noRam } = listed;
  expect(mayBeMadeFrom(noRam, shape)).toBe(false);
});

test("a setting the create leaves unset is not compared", () => {
  const { ram: _ram, description: _description, ...fewer } = shape;
  expect(mayBeMadeFrom({ ...listed, ram: 2048, description: "set by the platform" }, fewer)).toBe(
    true,
  );
  // The name is always set, so an app of another name is never the create's.
  expect(mayBeMadeFrom({ ...listed, name: "web-other" }, fewer)).toBe(false);
});

test("a number the list reports as text is not the same setting", () => {
  const asText = { ...listed, ram: "512" } as unknown as AppSummary;
  expect(mayBeMadeFrom(asText, shape)).toBe(false);
});

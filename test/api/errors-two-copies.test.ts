import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { HostingError, NotFoundError } from "../../src/api";

/*
 * Two copies of the built package in one process, as when a program and a library each install
 * pulumi-hosting: Node's own `require`, its cache cleared between the two loads (jest's module
 * registry is not Node's, so this runs in a child process).
 */

const DIST = resolve(__dirname, "../../dist");

const SCRIPT = `
const dist = ${JSON.stringify(DIST)};
const load = () => {
  for (const key of Object.keys(require.cache)) if (key.startsWith(dist)) delete require.cache[key];
  return {
    client: require(dist + "/api/index.js"),
    provider: require(dist + "/provider/errors.js"),
    emulator: require(dist + "/emulator/errors.js"),
  };
};
const a = load();
const b = load();
// A third copy whose classes a minifier renamed: the names are no key.
const c = load();
Object.defineProperty(c.client.NotFoundError, "name", { value: "e" });
Object.defineProperty(c.client.HostingApiError, "name", { value: "t" });
// An error of a release before the codes: marked by its classes' names only.
const old = new Error("gone");
for (const n of ["NotFoundError", "HostingApiError", "HostingError"]) {
  Object.defineProperty(old, Symbol.for("pulumi-hosting.error." + n), { value: true });
}
const details = { status: 404, bodyMessage: "gone", method: "GET", path: "/apps" };
const fromB = new b.client.NotFoundError(details);
const held = new b.client.LimiterHoldError(10, "pause", 0);
const leftOver = new b.provider.LeftOverAppError("left over", ["a1"]);
const state = new b.emulator.EmulatorStateFileError("/tmp/s.json", "not JSON");
console.log(JSON.stringify({
  distinct: a.client.NotFoundError !== b.client.NotFoundError,
  notFound: fromB instanceof a.client.NotFoundError,
  apiError: fromB instanceof a.client.HostingApiError,
  root: fromB instanceof a.client.HostingError,
  conflict: fromB instanceof a.client.ConflictError,
  held: held instanceof a.client.LimiterHoldError && held instanceof a.client.HostingError,
  leftOver: leftOver instanceof a.provider.LeftOverAppError && leftOver instanceof a.client.HostingError,
  state: state instanceof a.emulator.EmulatorStateFileError && state instanceof a.client.HostingError,
  plain: new Error("x") instanceof a.client.HostingError,
  deprecated: a.client.NotFoundError.isInstance(fromB),
  renamedMade: new c.client.NotFoundError(details) instanceof a.client.NotFoundError,
  renamedBase: new c.client.NotFoundError(details) instanceof a.client.HostingApiError,
  renamedOther: new c.client.NotFoundError(details) instanceof a.client.ConflictError,
  renamedAsks: fromB instanceof c.client.NotFoundError && fromB instanceof c.client.HostingApiError,
  earlierRelease: old instanceof a.client.NotFoundError && !(old instanceof a.client.ConflictError),
}));
`;

test("instanceof holds across loaded copies of the built error modules, whatever their classes are called", () => {
  const out = execFileSync(process.execPath, ["-e", SCRIPT], { encoding: "utf8" });
  expect(JSON.parse(out)).toEqual({
    distinct: true,
    notFound: true,
    apiError: true,
    root: true,
    conflict: false,
    held: true,
    leftOver: true,
    state: true,
    plain: false,
    deprecated: true,
    renamedMade: true,
    renamedBase: true,
    renamedOther: false,
    renamedAsks: true,
    earlierRelease: true,
  });
});

test("in one copy, instanceof follows the prototype chain; anonymous subclasses are not one class", () => {
  const A = class extends HostingError {};
  const B = class extends HostingError {};
  expect(new A("a", "HOSTING_A") instanceof B).toBe(false);
  expect(new A("a", "HOSTING_A") instanceof HostingError).toBe(true);
  expect(Object.create(NotFoundError.prototype) instanceof NotFoundError).toBe(true);
  expect(new A("a", "HOSTING_A") instanceof NotFoundError).toBe(false);
});

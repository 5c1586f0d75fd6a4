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
}));
`;

test("instanceof holds across two loaded copies of the built error modules", () => {
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

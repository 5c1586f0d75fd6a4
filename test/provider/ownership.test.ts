import { Connection } from "../../src/connection/connection";
import { OWNER_KEY, ownerOf, type Owner } from "../../src/connection/owner";
import { ClientPool } from "../../src/connection/pool";
import { stackConfig } from "../../src/connection/stack-config";
import { OtherAccountError } from "../../src/provider/errors";
import {
  otherAccountError,
  ownerMoved,
  ownerNow,
  reach,
  withOwner,
} from "../../src/provider/ownership";
import { captureOutput } from "../helpers/output";

/*
 * Whose object a resource holds, decided in-process from the stack's connections (no request is
 * sent): which connection reaches it, what state keeps, when a change of account replaces it,
 * and what the user reads when an object of another account is not found. The deployments that
 * carry these decisions are in whose-app.test.ts; here every branch and every word is pinned.
 */

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const jwt = (sub: string, exp = 1) =>
  `${b64({ alg: "HS256" })}.${b64({ iss: "hosting", sub, exp })}.sig`;
const ALICE = jwt("alice");
const ALICE_ROTATED = jwt("alice", 2);
const BOB = jwt("bob");
const CAROL = jwt("carol");
const HERE = "https://api.example.test/";
const THERE = "https://eu.api.example.test/";
const URN = "urn:pulumi:dev::shop::pulumi-nodejs:dynamic/hosting:App::web";

const pool = new ClientPool();
afterAll(() => pool.close());
const connect = (config: Record<string, unknown>) => new Connection(stackConfig(config), {}, pool);

/** The default connection acts for alice; `previous` (another service) for bob. */
const conn = connect({
  "hosting:apiUrl": HERE,
  "hosting:token": ALICE,
  "hosting:accounts": {
    previous: { apiUrl: THERE, token: BOB },
    again: { apiUrl: THERE, token: ALICE_ROTATED },
  },
});
const alice: Owner = ownerOf(HERE, ALICE);
const bob: Owner = ownerOf(THERE, BOB);
const carol: Owner = ownerOf(HERE, CAROL);
const held = (owner: Owner, more: Record<string, unknown> = {}) => ({
  [OWNER_KEY]: owner,
  ...more,
});

describe("reach: which connection reaches a resource's object", () => {
  test("nothing recorded (a stack of an earlier release): the resource's own connection", () => {
    expect(reach(conn, {})).toEqual({ client: conn.client() });
    expect(reach(conn, { account: "previous" })).toEqual({ client: conn.client("previous") });
  });

  test("recorded under the resource's own account: its own connection, not another of that account", () => {
    // `again` and the default act for alice: the one the resource names is the one it keeps.
    const r = reach(conn, held(ownerOf(THERE, ALICE_ROTATED), { account: "again" }));
    expect(r).toEqual({ client: conn.client("again") });
    expect(r.client).not.toBe(conn.client());
  });

  test("recorded under an account configured under another name: that connection", () => {
    expect(reach(conn, held(bob))).toEqual({ client: conn.client("previous") });
  });

  test("recorded under an account no connection acts for: its own connection, marked foreign", () => {
    expect(reach(conn, held(carol))).toEqual({
      client: conn.client(),
      foreign: { recorded: carol, current: alice },
    });
  });
});

test("withOwner keeps the owner state records, else records the one given, else none", () => {
  const out = { id: "app-1" };
  expect(withOwner(out, held(bob), alice)).toEqual({ id: "app-1", [OWNER_KEY]: bob });
  expect(withOwner(out, {}, alice)).toEqual({ id: "app-1", [OWNER_KEY]: alice });
  expect(withOwner(out, {}, undefined)).toEqual({ id: "app-1" });
  expect(withOwner(out, { [OWNER_KEY]: "not an owner" }, undefined)).toEqual({ id: "app-1" });
});

test("ownerNow is the owner of the resource's account now; undefined when not configured", () => {
  expect(ownerNow(conn, {})).toEqual(alice);
  expect(ownerNow(conn, { account: "previous" })).toEqual(bob);
  expect(ownerNow(conn, { account: "missing" })).toBeUndefined();
  expect(ownerNow(connect({}), {})).toBeUndefined();
});

describe("ownerMoved: a change of account replaces the object", () => {
  let output: ReturnType<typeof captureOutput>;
  beforeEach(() => (output = captureOutput()));
  afterEach(() => output.restore());

  test("not moved: nothing recorded, the same account (a rotated token), or no account now", () => {
    expect(ownerMoved(conn, {}, {})).toBe(false);
    expect(ownerMoved(conn, held(ownerOf(THERE, ALICE_ROTATED)), {})).toBe(false);
    expect(ownerMoved(conn, held(alice), { account: "missing" })).toBe(false);
    expect(output.stdout()).toBe("");
  });

  test("moved, with the old account still configured: replaced, and nothing to tell", () => {
    expect(ownerMoved(conn, held(bob), {})).toBe(true);
    expect(output.stdout()).toBe("");
  });

  test("moved away from an account no longer configured: replaced, and the line says how to delete the old one", () => {
    expect(ownerMoved(conn, held(carol, { __urn: URN }), {})).toBe(true);
    expect(ownerMoved(conn, held(carol), {})).toBe(true);
    const [withUrn, without] = output.stdout().trimEnd().split("\n");
    const rest =
      "was made under account 9b5cebac4ce6 on " +
      "https://api.example.test/, and its account now acts for " +
      "account 2ed6ad66c03e on https://api.example.test/: it " +
      "is replaced (made again under the new " +
      "account). Deleting the old one needs a connection of the old account: keep its token " +
      "configured under any name, e.g. `pulumi config set --secret --path " +
      "hosting:accounts.previous.token <the old account's " +
      "token>` (with `hosting:accounts.previous." +
      "apiUrl` if its URL differs); the provider uses whichever configured connection acts for it";
    expect(withUrn).toBe(`hosting: the object of ${URN} ${rest}`);
    expect(without).toBe(`hosting: this resource's object ${rest}`);
  });
});

describe("otherAccountError: not found under another account is not gone", () => {
  const hint =
    "To manage it, keep its token configured under any name, e.g. `pulumi config set --secret " +
    "--path hosting:accounts.previous.token <the old account's token>` (with " +
    "`hosting:accounts.previous.apiUrl` if its URL differs); the provider uses whichever " +
    "configured connection acts for it.";

  test("it names both accounts, how to keep managing it, and the resource's own state delete", () => {
    const err = otherAccountError("app-7", { __urn: URN }, { recorded: carol, current: alice });
    expect(err).toBeInstanceOf(OtherAccountError);
    expect(err.code).toBe("HOSTING_OTHER_ACCOUNT");
    expect(err.message).toBe(
      "app-7 was made under account 9b5cebac4ce6 on " +
        "https://api.example.test/, and this stack now " +
        "reaches the service as account 2ed6ad66c03e on " +
        "https://api.example.test/, which does not " +
        `find it: that does not mean it is gone, so it stays ` +
        `in the stack. ${hint} If you deleted ` +
        `it yourself, remove it from the stack with \`pulumi state delete '${URN}'\`.`,
    );
  });

  test("without a URN or a configured account now, it says so in words", () => {
    const err = otherAccountError("app-7", {}, { recorded: carol, current: undefined });
    expect(err.message).toContain(
      "this stack now reaches the service as an account that is not configured, which does not",
    );
    expect(err.message).toContain("remove it from the stack with `pulumi state delete <urn>`.");
  });
});

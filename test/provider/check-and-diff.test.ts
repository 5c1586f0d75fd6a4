import { z } from "zod";
import { HostingInputError } from "../../src/api";
import { providerHandlers } from "../../src";
import { checkWith, type ResourceHandler } from "../../src/provider/resource-handler";

/*
 * The check/diff plumbing every resource shares, through `providerHandlers(kind)` as Pulumi's
 * provider host calls it: what replaces, what replaces delete-first, what a preview's unknown
 * value does, and which errors become check failures. Whole results are compared strictly.
 */

/** Pulumi's marker for a value not known until apply, written out. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const PROVIDER = 'exports.handler = () => require("pulumi-hosting").providerHandlers("App");\n';
const API_URL = "http://127.0.0.1:9";
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";

type ConfigureRequest = Parameters<
  NonNullable<ReturnType<typeof providerHandlers>["configure"]>
>[0];
/** The stack config as the host hands it to configure. */
const stack = (config: Record<string, string>) =>
  ({ config: { get: (key: string) => config[key] } }) as unknown as ConfigureRequest;

// These tests are about the check/diff plumbing, so the stack is configured as a user's would
// be (check also reports the connection's problems: see "an unconfigured stack" below).
beforeAll(async () => {
  for (const kind of ["App", "AppWebAccess", "CustomDomain"] as const) {
    await providerHandlers(kind).configure!(
      stack({ "hosting:apiUrl": API_URL, "hosting:token": TOKEN }),
    );
  }
});

describe("diff", () => {
  const webAccess = providerHandlers("AppWebAccess");

  test("no change: nothing to do, nothing replaced", async () => {
    // A new build's `__provider` text is not a change of the resource.
    const olds = { appId: "a", enabled: true, __provider: "old text" };
    const news = { appId: "a", enabled: true, __provider: "new text" };
    expect(await webAccess.diff!("a", olds, news)).toStrictEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  test("a replacing change of a resource without its own rule is replaced create-first", async () => {
    expect(
      await webAccess.diff!("a", { appId: "a", enabled: true }, { appId: "b", enabled: true }),
    ).toStrictEqual({ changes: true, replaces: ["appId"], deleteBeforeReplace: false });
  });

  test("an in-place change replaces nothing and deletes nothing first", async () => {
    expect(
      await webAccess.diff!("a", { appId: "a", enabled: true }, { appId: "a", enabled: false }),
    ).toStrictEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  test("a value unknown until apply is a change, even where the old value may turn out equal", async () => {
    expect(
      await webAccess.diff!("a", { appId: "a", enabled: true }, { appId: UNKNOWN, enabled: true }),
    ).toStrictEqual({ changes: true, replaces: ["appId"], deleteBeforeReplace: false });
  });

  test("CustomDomain replaces delete-first (a domain cannot be attached twice)", async () => {
    const olds = { appId: "a", domain: "shop.example.test" };
    const news = { appId: "a", domain: "www.example.test" };
    expect(await providerHandlers("CustomDomain").diff!("d", olds, news)).toStrictEqual({
      changes: true,
      replaces: ["domain"],
      deleteBeforeReplace: true,
    });
  });

  describe("App", () => {
    const app = providerHandlers("App");
    const olds = {
      name: "web",
      source: "/src/a",
      sourceHash: "h1",
      ram: 512,
      __provider: PROVIDER,
    };

    test("a new source path with the same content is no change", async () => {
      expect(await app.diff!("id", olds, { ...olds, source: "/src/b" })).toStrictEqual({
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      });
    });

    test("a setting the platform fills in, now unset, is no change; env removed is", async () => {
      const { ram: _ram, ...withoutRam } = olds;
      expect(await app.diff!("id", olds, withoutRam)).toMatchObject({ changes: false });
      const withEnv = { ...olds, env: { A: "1" } };
      expect(await app.diff!("id", withEnv, olds)).toStrictEqual({
        changes: true,
        replaces: ["env"],
        deleteBeforeReplace: false,
      });
    });

    test("replacing keys are listed sorted; no subdomain: create-first", async () => {
      const news = { ...olds, sourceHash: "h2", name: "web2", vcpu: 2 };
      expect(await app.diff!("id", olds, news)).toStrictEqual({
        changes: true,
        replaces: ["name", "sourceHash", "vcpu"],
        deleteBeforeReplace: false,
      });
    });

    test("a fixed subdomain: delete-first", async () => {
      const news = { ...olds, subdomain: "shop", name: "web2" };
      expect(await app.diff!("id", { ...olds, subdomain: "shop" }, news)).toStrictEqual({
        changes: true,
        replaces: ["name"],
        deleteBeforeReplace: true,
      });
    });

    test("no change with a fixed subdomain: nothing is deleted first", async () => {
      const same = { ...olds, subdomain: "shop" };
      expect(await app.diff!("id", same, { ...same })).toStrictEqual({
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      });
    });

    test("an account set and then removed is a change (back to the default account)", async () => {
      const diff = await app.diff!("id", { ...olds, account: "ops" }, olds);
      expect(diff.changes).toBe(true);
      expect(diff.replaces).toContain("account");
    });
  });
});

describe("check", () => {
  test("a source unknown until apply is not hashed: no failure, the hash unknown too", async () => {
    const checked = await providerHandlers("App").check!(
      {},
      { __provider: PROVIDER, source: UNKNOWN, name: "web" },
    );
    expect(checked).toStrictEqual({
      inputs: { name: "web", source: UNKNOWN, sourceHash: UNKNOWN },
      failures: [],
    });
  });

  test("an invalid input fails before any packaging is tried", async () => {
    const checked = await providerHandlers("App").check!({}, { source: "/nonexistent", name: 5 });
    expect(checked.failures?.map((f) => f.property)).toEqual(["name"]);
  });

  test("a source that does not exist is a failure naming source", async () => {
    const checked = await providerHandlers("App").check!({}, { source: "/nonexistent", name: "w" });
    expect(checked.failures).toStrictEqual([
      { property: "source", reason: 'source "/nonexistent" does not exist' },
    ]);
  });

  test("an unconfigured stack: the connection's failure first, the input's still reported", async () => {
    // A kind not configured above: the environment alone, cleared here.
    const saved = [process.env.HOSTING_API_URL, process.env.HOSTING_TOKEN];
    delete process.env.HOSTING_API_URL;
    delete process.env.HOSTING_TOKEN;
    try {
      const vmStart = providerHandlers("VmStart");
      await vmStart.configure!(stack({}));
      const checked = await vmStart.check!({}, { vmId: "" });
      expect(checked.failures?.map((f) => f.property)).toStrictEqual(["", "vmId"]);
      expect(checked.failures?.[0].reason).toBe(
        "hosting:apiUrl is not set: set it with `pulumi config set hosting:apiUrl <url>` or the " +
          "HOSTING_API_URL environment variable. hosting:token is not set: set it with " +
          "`pulumi config set --secret hosting:token <token>` or the HOSTING_TOKEN environment " +
          "variable.",
      );
      await vmStart.configure!(stack({ "hosting:apiUrl": API_URL, "hosting:token": TOKEN }));
      expect(
        (await vmStart.check!({}, { vmId: "" })).failures?.map((f) => f.property),
      ).toStrictEqual(["vmId"]);
    } finally {
      [process.env.HOSTING_API_URL, process.env.HOSTING_TOKEN] = saved;
      if (saved[0] === undefined) delete process.env.HOSTING_API_URL;
      if (saved[1] === undefined) delete process.env.HOSTING_TOKEN;
    }
  });

  describe("prepare's errors", () => {
    const schema = z.object({ path: z.string() });
    const handler = (prepare: ResourceHandler["prepare"]) =>
      ({ schema, replaceOnChange: [], prepare }) as unknown as ResourceHandler;

    test("an input error is a check failure naming its property", async () => {
      const h = handler(async () => {
        throw new HostingInputError("path", "path is not a folder");
      });
      expect(await checkWith(h, {}, { path: "x" })).toStrictEqual({
        inputs: { path: "x" },
        failures: [{ property: "path", reason: "path is not a folder" }],
      });
    });

    test("any other error is the provider's failure, not the user's input: it is thrown", async () => {
      const bug = new TypeError("cannot read properties of undefined");
      const h = handler(async () => {
        throw bug;
      });
      await expect(checkWith(h, {}, { path: "x" })).rejects.toBe(bug);
    });

    test("prepare sees the olds (or an empty object) and its result is the inputs", async () => {
      const seen: unknown[] = [];
      const h = handler(async (inputs, olds) => {
        seen.push(olds);
        return { ...inputs, hash: "h" };
      });
      expect(await checkWith(h, undefined as never, { path: "x" })).toStrictEqual({
        inputs: { path: "x", hash: "h" },
        failures: [],
      });
      await checkWith(h, { path: "old" }, { path: "x" });
      expect(seen).toStrictEqual([{}, { path: "old" }]);
    });
  });
});

describe("update without a request", () => {
  test("an input the program no longer sets leaves the outputs; a platform-filled setting stays", async () => {
    const olds = {
      name: "web",
      source: "/src",
      sourceHash: "h",
      env: { A: "1" },
      account: "ops",
      ram: 512,
      setup: true,
      url: "https://web.example.test",
    };
    const news = { name: "web", source: "/src", sourceHash: "h" };
    const { outs } = await providerHandlers("App").update!("id", olds, news);
    // The update records the account it was made under (this state, like one of an earlier
    // release, recorded none).
    const { __owner: owner, ...rest } = outs as Record<string, unknown>;
    expect(owner).toEqual({ account: expect.stringMatching(/^sub-/), service: expect.any(String) });
    expect(rest).toStrictEqual({
      name: "web",
      source: "/src",
      sourceHash: "h",
      ram: 512,
      setup: true,
      url: "https://web.example.test",
    });
  });
});

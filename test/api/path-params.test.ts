import { HostingClient, HostingInputError } from "../../src/api";
import { buildPath, encodePathParam } from "../../src/api/path";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";

/*
 * An ID goes into a path only as itself: values that would change the request line or the path
 * are the caller's input error, named, before any request; every other value is sent encoded.
 */

async function deleteApp(id: unknown) {
  const fx = await fixtureServer([json(200, {})]);
  const client = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxRetries: 0 });
  try {
    const err = await client.deleteApp(id as string).then(
      () => undefined,
      (e: unknown) => e as HostingInputError,
    );
    return { err, urls: fx.seen.map((r) => r.url) };
  } finally {
    await client.close();
    await fx.close();
  }
}

describe("control characters in an ID are refused, not sent percent-encoded", () => {
  test.each([
    ["a line feed", "a\nb"],
    ["a carriage return", "a\rb"],
    ["NUL", "a\u0000b"],
    ["the last C0 control", "a\u001fb"],
    ["DEL", "a\u007fb"],
  ])("%s", async (_name, id) => {
    const { err, urls } = await deleteApp(id);
    expect(err).toBeInstanceOf(HostingInputError);
    expect(err?.property).toBe("app_id");
    expect(err?.message).toBe("app_id contains control characters");
    expect(urls).toEqual([]);
  });

  test("the characters either side of the range are sent, encoded", async () => {
    expect((await deleteApp("a b\u0080c")).urls).toEqual(["/apps/a%20b%C2%80c"]);
  });
});

describe("values that would leave the path", () => {
  test.each([["."], [".."], ["a/b"], ["a\\b"]])("%j names the rule", async (id) => {
    const { err, urls } = await deleteApp(id);
    expect(err?.property).toBe("app_id");
    expect(err?.message).toBe(
      `app_id ${JSON.stringify(id)} is not a valid identifier (no "/", "\\", "." or "..")`,
    );
    expect(urls).toEqual([]);
  });

  test.each([[""], [42], [null]])("%j is not an ID at all", async (id) => {
    const { err, urls } = await deleteApp(id);
    expect(err?.property).toBe("app_id");
    expect(err?.message).toBe("app_id must be a non-empty string");
    expect(urls).toEqual([]);
  });

  test("dots that are not a whole segment are an ordinary ID", async () => {
    expect((await deleteApp("...")).urls).toEqual(["/apps/..."]);
    expect((await deleteApp("v1.2")).urls).toEqual(["/apps/v1.2"]);
  });
});

describe("lone surrogates", () => {
  test.each([
    ["a high surrogate at the end", "app-\uD83D"],
    ["a low surrogate after a complete pair", "\uD83D\uDE00\uDE00"],
    ["two high surrogates", "\uD83D\uD83D\uDE00x"],
  ])("%s is refused", async (_name, id) => {
    const { err, urls } = await deleteApp(id);
    expect(err?.property).toBe("app_id");
    expect(err?.message).toBe(
      "app_id is not well-formed Unicode (it holds a lone surrogate); pass the ID as the API gave it",
    );
    expect(urls).toEqual([]);
  });

  test("pairs are sent encoded", async () => {
    expect((await deleteApp("\uD83D\uDE00\uD83D\uDE00")).urls).toEqual([
      "/apps/%F0%9F%98%80%F0%9F%98%80",
    ]);
  });
});

describe("templates", () => {
  test("a template without parameters is used as it is; every parameter is filled", () => {
    expect(buildPath("/apps")).toBe("/apps");
    expect(buildPath("/apps/{app_id}/domains/{domain}", { app_id: "a 1", domain: "x.test" })).toBe(
      "/apps/a%201/domains/x.test",
    );
  });

  test("a missing parameter names itself", () => {
    expect(() => buildPath("/apps/{app_id}", {})).toThrow(
      expect.objectContaining({
        property: "app_id",
        message: "path parameter app_id is missing",
      }),
    );
    expect(() => buildPath("/apps/{app_id}")).toThrow(HostingInputError);
  });

  test("encodePathParam names the parameter it was given", () => {
    expect(() => encodePathParam("vm_id", "..")).toThrow(
      expect.objectContaining({ property: "vm_id" }),
    );
    expect(encodePathParam("vm_id", "a b")).toBe("a%20b");
  });
});

test("a well-formed query value (an emoji in it) is sent; a lone surrogate is not", async () => {
  const fx = await fixtureServer([json(200, [])]);
  const client = new HostingClient({ apiUrl: fx.url, token: FAKE_TOKEN, maxRetries: 0 });
  try {
    await client.listRuntimeVersions({ language: "node😀" }).catch(() => undefined);
    const err = await client.listRuntimeVersions({ language: "node\uD83D" }).then(
      () => undefined,
      (e: unknown) => e as HostingInputError,
    );
    expect(err?.property).toBe("language");
    expect(fx.seen.map((r) => r.url)).toEqual(["/apps/versions?language=node%F0%9F%98%80"]);
  } finally {
    await client.close();
    await fx.close();
  }
});

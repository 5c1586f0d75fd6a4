import { HostingInputError } from "../../src/api/wire";
import { generatedName, isGeneratedName, withName } from "../../src/provider/app/auto-name";
import { appInputSchema } from "../../src/provider/app/schema";

/*
 * The name an App gets when the program sets none: its resource name plus 7 hex of a digest of
 * its URN. Pinned here as literals: a release that named the same App differently would no
 * longer recognise the app an interrupted create made, and two stacks of one program must get
 * two names. Every generated name passes the App's own name rule.
 */

const urn = (stack: string, name: string) =>
  `urn:pulumi:${stack}::shop::pulumi-nodejs:dynamic/hosting:App::${name}`;

test.each([
  ["dev", "web", "web-ce4e555"],
  ["prod", "web", "web-8221d74"],
  ["dev", "my app/β*svc", "my app-svc-bef2f3b"], // a run of other characters: one `-`
  ["dev", "--_x.y_- ", "x.y-31182c4"], // no separator first or last
  ["dev", "***", "app-22cc9ca"], // nothing left: `app`
  ["dev", "a::b", "a-b-abc7d2e"], // a name holding `::` is the whole name
  ["dev", "x".repeat(80), `${"x".repeat(55)}-cb4646c`], // 63 characters at most
])("stack %s, resource %j: %s, the same in every process", (stack, name, expected) => {
  expect(generatedName(urn(stack, name))).toBe(expected);
  expect(appInputSchema.shape.name.safeParse(expected).success).toBe(true);
  expect(isGeneratedName(expected, urn(stack, name))).toBe(true);
});

test("a name is the generated one only for its own URN", () => {
  expect(isGeneratedName("web-ce4e555", urn("prod", "web"))).toBe(false);
  expect(isGeneratedName("web", urn("dev", "web"))).toBe(false);
  expect(isGeneratedName("web-ce4e555", undefined)).toBe(false);
});

describe("the name check fills in", () => {
  const news = { source: "./app" };
  const naming = { urn: urn("dev", "web") };

  test("a name the program sets is kept", () => {
    expect(withName({ ...news, name: "shop" }, {}, naming)).toEqual({ ...news, name: "shop" });
  });

  test("the name in state is kept, whatever made it", () => {
    expect(withName(news, { name: "old-name" }, naming)).toEqual({ ...news, name: "old-name" });
    expect(withName(news, { name: 7 }, naming)).toEqual({ ...news, name: "web-ce4e555" });
  });

  test("else pulumi:autonaming's proposal, else the generated name", () => {
    const proposed = { name: "web-proposed", mode: "propose" as const };
    expect(withName(news, {}, { ...naming, proposed })).toEqual({ ...news, name: "web-proposed" });
    expect(withName(news, {}, naming)).toEqual({ ...news, name: "web-ce4e555" });
  });

  test("autonaming disabled: name is required, and the error says so", () => {
    const proposed = { mode: "disable" as const };
    const err = (() => {
      try {
        withName(news, {}, { ...naming, proposed });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(HostingInputError);
    expect(err).toMatchObject({ property: "name", message: expect.stringMatching(/set name/) });
  });

  test("without a URN (a program of an older release) nothing is filled in", () => {
    expect(withName(news, {}, {})).toEqual(news);
  });
});

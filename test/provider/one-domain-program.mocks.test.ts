import * as pulumi from "@pulumi/pulumi";

/*
 * What the program can know when it builds its resources: two CustomDomains on the same
 * `app.id` are refused then (a preview fails before any request), naming both.
 */

pulumi.runtime.setMocks(
  {
    newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: (args) => args.inputs,
  },
  "hosting",
  "test",
  true,
);

// Loaded after the mocks are set, as a program would be.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hosting = require("../../src") as typeof import("../../src");

test("two CustomDomains on one app.id: the second is refused, naming both", () => {
  const app = new hosting.App("web", { source: "./app", name: "web" });
  new hosting.CustomDomain("www", { appId: app.id, domain: "www.example.com" });
  expect(
    () => new hosting.CustomDomain("shop", { appId: app.id, domain: "shop.example.com" }),
  ).toThrow(
    'CustomDomain "shop": its appId is the app of CustomDomain "www" too; an app takes one custom domain',
  );
});

test("one CustomDomain on each of two apps, and plain id strings, are left to the service", () => {
  const a = new hosting.App("a", { source: "./a", name: "a" });
  const b = new hosting.App("b", { source: "./b", name: "b" });
  new hosting.CustomDomain("a-www", { appId: a.id, domain: "www.a.example.com" });
  new hosting.CustomDomain("b-www", { appId: b.id, domain: "www.b.example.com" });
  new hosting.CustomDomain("s1", { appId: "app-1", domain: "one.example.com" });
  expect(
    () => new hosting.CustomDomain("s2", { appId: "app-1", domain: "two.example.com" }),
  ).not.toThrow();
});

test("under mocks a source that does not exist is not refused (unit tests need no files)", () => {
  expect(() => new hosting.App("nofiles", { source: "./no-such-folder", name: "x" })).not.toThrow();
});

test("the refusal is a HostingInputError that Pulumi's runtime prints as its message alone", () => {
  const app = new hosting.App("coded", { source: "./app", name: "coded" });
  new hosting.CustomDomain("first", { appId: app.id, domain: "one.example.com" });
  let thrown: unknown;
  try {
    new hosting.CustomDomain("second", { appId: app.id, domain: "two.example.com" });
  } catch (err) {
    thrown = err;
  }
  // What a program that catches it reads: the class, the code and the property, as ever.
  expect(thrown).toBeInstanceOf(hosting.HostingInputError);
  expect(thrown).toBeInstanceOf(hosting.HostingError);
  expect(thrown).toMatchObject({
    name: "HostingInputError",
    code: "HOSTING_INVALID_INPUT",
    property: "appId",
    mayHaveTakenEffect: false,
  });
  // What Pulumi's program runtime looks for to print the message alone, with no stack.
  expect(pulumi.RunError.isInstance(thrown)).toBe(true);
  // Pulumi's serializer prefixes a message each time it passes an input: said once all the same.
  const err = thrown as Error;
  err.message = `error serializing property "appId": ${err.message}`;
  expect(err.message).toMatch(/^CustomDomain "second": its appId is the app of CustomDomain/);
});

import * as pulumi from "@pulumi/pulumi";

/*
 * Unit tests of index.ts under Pulumi's mocks. Data sources reach `mocks.call` with the token
 * `hosting:index:<function>` and their arguments; resources reach `mocks.newResource`.
 */

const calls: pulumi.runtime.MockCallArgs[] = [];
const resources: pulumi.runtime.MockResourceArgs[] = [];

pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      resources.push(args);
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: (args) => {
      calls.push(args);
      switch (args.token) {
        case "hosting:index:getDatabase":
          return { id: "db-1", name: args.inputs.name, serviceType: "postgres" };
        case "hosting:index:getDatabaseConnection":
          return {
            databaseId: args.inputs.databaseId,
            connectionUrl: "postgres://u:p@db/orders",
            visualizerUrl: "",
          };
        case "hosting:index:getRuntimeVersions":
          return [
            { language: "node", version: "18.20.4", recommended: false, latest: false },
            { language: "node", version: "20.18.1", recommended: true, latest: false },
            { language: "node", version: "22.11.0", recommended: false, latest: true },
          ];
        default:
          throw new Error(`unexpected call ${args.token}`);
      }
    },
  },
  "hosting-unit-testing",
  "test",
  false,
);
pulumi.runtime.setConfig("hosting-unit-testing:database", "orders");

const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

describe("the program", () => {
  let program: typeof import("./index");
  beforeAll(async () => {
    program = await import("./index");
  });

  test("looks the database up by the configured name, and its connection by its id", async () => {
    await value(program.appId);
    expect(calls.find((c) => c.token === "hosting:index:getDatabase")?.inputs).toEqual({
      name: "orders",
    });
    expect(calls.find((c) => c.token === "hosting:index:getDatabaseConnection")?.inputs).toEqual({
      databaseId: "db-1",
    });
  });

  test("runs the app on the recommended node version", async () => {
    expect(await value(program.runtimeVersion)).toBe("20.18.1");
    // The App reaches the mocks only once all its inputs resolve (the database lookups too):
    // wait for its id, not for the version alone, or this test leans on the order tests run in.
    await value(program.appId);
    const app = resources.find((r) => r.type === "pulumi-nodejs:dynamic/hosting:App")!;
    expect(app.inputs.runtime).toEqual({ language: "node", version: "20.18.1" });
  });

  test("passes the connection URL to the app as a secret env variable", async () => {
    expect(await value(program.app.env)).toEqual({ DATABASE_URL: "postgres://u:p@db/orders" });
    expect(await pulumi.isSecret(program.app.env)).toBe(true);
  });
});

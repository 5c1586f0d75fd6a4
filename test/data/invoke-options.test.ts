import * as pulumi from "@pulumi/pulumi";
import { useEmulator } from "../helpers/emulator";
import { useProgramEnv } from "../helpers/program-env";

/*
 * The Output forms under Pulumi's own mocks in preview mode: a resource about to be created has
 * an unknown id, so a data source that depends on it must stay unknown and ask nothing, as
 * Pulumi's output invokes do; one with known inputs runs at once (under mocks, it asks
 * `mocks.call`; the emulator counts that nothing reaches a service either way).
 */

const asked: string[] = [];
pulumi.runtime.setMocks(
  {
    // In a preview, a resource that does not exist yet has no id.
    newResource: (args) => ({
      id: args.name === "existing" ? "existing-id" : undefined,
      state: {},
    }),
    call: (args) => {
      asked.push(args.token);
      return args.token === "hosting:index:getDatabases" ? [{ serviceType: "redis" }] : [];
    },
  },
  "hosting",
  "test",
  true,
);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const hosting = require("../../src") as typeof import("../../src");

const env = useEmulator({ setupDelayMs: 0 });
const isKnown = (o: pulumi.Output<unknown>) =>
  (o as unknown as { isKnown: Promise<boolean> }).isKnown;
const value = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

useProgramEnv(env);

beforeEach(() => {
  asked.length = 0;
  env.emu.resetStats();
});

test("dependsOn a resource being created: unknown in preview, and nothing is asked", async () => {
  const analytics = new hosting.AppAnalytics("new", { appId: "app-1", enabled: true });
  const dashboard = hosting.getAppDashboardOutput(
    { appId: "app-1", minutes: 5 },
    { dependsOn: [analytics] },
  );
  const apps = hosting.getAppsOutput({}, { dependsOn: pulumi.output([analytics]) });
  expect(await isKnown(dashboard)).toBe(false);
  expect(await isKnown(apps)).toBe(false);
  expect(asked).toEqual([]);
  expect(env.emu.stats().total).toBe(0);
});

test("dependsOn a resource that exists, or no dependsOn: the data source runs", async () => {
  const existing = new hosting.AppWebAccess("existing", { appId: "app-1", enabled: true });
  const withDep = hosting.getDatabasesOutput({ serviceType: "redis" }, { dependsOn: existing });
  expect((await value(withDep)).map((d) => d.serviceType)).toEqual(["redis"]);
  expect(await value(hosting.getAppsOutput())).toEqual([]);
  expect(asked).toEqual(["hosting:index:getDatabases", "hosting:index:getApps"]);
  expect(env.emu.stats().total).toBe(0);
});

test("opts.provider is refused with the fix, before any request", async () => {
  const provider = {} as pulumi.ProviderResource;
  await expect(hosting.getApps({}, { provider })).rejects.toMatchObject({
    property: "provider",
    message: expect.stringMatching(/has no effect.*hosting:apiUrl.*Remove the provider option/),
  });
  expect(env.emu.stats().total).toBe(0);
});

test("opts.provider on an Output form is refused at the call, even while its arguments are unknown", () => {
  const provider = {} as pulumi.ProviderResource;
  const app = new hosting.AppWebAccess("not-yet", { appId: "app-1", enabled: true });
  expect(() => hosting.getAppDeploymentsOutput({ appId: app.id }, { provider })).toThrow(
    /^getAppDeploymentsOutput: opts.provider has no effect/,
  );
});

import type { ResourceKind } from "../../src/provider/handlers";
import { appSource, useProviderHost } from "../helpers/provider-env";

/*
 * One `pulumi up` suffices under transient faults: 60 resources (15 apps, each with a custom
 * domain, web access and analytics) are created and then destroyed through Pulumi's own
 * dynamic-provider host while the emulator answers about one request in ten, on every route, with
 * a 503, a 429 or a dropped connection (none of them applied). Every operation must succeed, and
 * the emulator must end with exactly the apps the stack holds: no orphan, no duplicate.
 */

const APPS = 15;
const FAULTS = {
  rules: [
    { probability: 0.04, status: 503, retryAfterSeconds: 0 },
    { probability: 0.03, status: 429, retryAfterSeconds: 0 },
    { probability: 0.03, reset: true },
  ],
};

const env = useProviderHost({ seed: "faulty", setupDelayMs: 100, domainActivationMs: 100 });

interface Made {
  kind: ResourceKind;
  urn: string;
  id: string;
  properties: Record<string, unknown>;
}

/** check, then create, as the engine does; a failure is counted, not thrown. */
async function create(kind: ResourceKind, name: string, props: Record<string, unknown>) {
  const urn = env.urn(kind, name);
  const inputs = await env.inputs(kind, kind === "App" ? { ...props, __urn: urn } : props);
  const checked = await env.host.check(urn, {}, inputs);
  if (checked.failures.length > 0) throw new Error(JSON.stringify(checked.failures));
  const made = await env.host.create(urn, checked.inputs);
  return { kind, urn, ...made } satisfies Made;
}

test(`${APPS * 4} resources created and destroyed under ~10% injected 503/429/resets`, async () => {
  const source = await appSource();
  env.emu.resetStats();
  env.emu.setFaults(FAULTS);
  const failures: string[] = [];
  const made: Made[] = [];
  const keep = async (p: Promise<Made>) => {
    try {
      made.push(await p);
      return made[made.length - 1];
    } catch (err) {
      failures.push((err as Error).message);
      return undefined;
    }
  };
  const started = Date.now();
  await Promise.all(
    Array.from({ length: APPS }, async (_, i) => {
      const name = `faulty-${i}`;
      const app = await keep(create("App", name, { source, name }));
      if (!app) return;
      const appId = app.id;
      await Promise.all([
        keep(create("CustomDomain", name, { appId, domain: `${name}.pointed.test` })),
        keep(create("AppWebAccess", name, { appId, enabled: false })),
        keep(create("AppAnalytics", name, { appId, enabled: true })),
      ]);
    }),
  );
  const createdMs = Date.now() - started;
  const apps = () => env.emu.world.apps.filter((a) => a.name.startsWith("faulty-"));
  const held = made.filter((m) => m.kind === "App").map((m) => m.id);
  const orphans = apps().filter((a) => !held.includes(a.id)).length;
  const duplicates = apps().length - new Set(apps().map((a) => a.name)).size;
  const afterCreate = env.emu.stats().faults;

  // Destroy: dependents first, then the apps, as the engine orders it.
  const destroy = async (m: Made) => {
    try {
      await env.host.delete(m.id, m.urn, m.properties);
    } catch (err) {
      failures.push((err as Error).message);
    }
  };
  await Promise.all(made.filter((m) => m.kind !== "App").map(destroy));
  await Promise.all(made.filter((m) => m.kind === "App").map(destroy));
  const { faults, total } = env.emu.stats();
  env.emu.setFaults({});
  console.log(
    `${APPS * 4} resources under faults: created in ${createdMs} ms, faults injected while ` +
      `creating ${JSON.stringify(afterCreate)}, in all ${JSON.stringify(faults)} of ${total} ` +
      "requests; " +
      `failures ${failures.length}, orphans ${orphans}, duplicates ${duplicates}`,
  );
  expect(failures).toEqual([]);
  expect(made).toHaveLength(APPS * 4);
  expect(orphans).toBe(0);
  expect(duplicates).toBe(0);
  expect(apps()).toEqual([]);
  // The faults did happen, on every kind asked for.
  expect(faults.status).toBeGreaterThan(0);
  expect(faults.reset).toBeGreaterThan(0);
}, 120_000);

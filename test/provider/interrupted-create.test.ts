import { generatedName } from "../../src/provider/app/auto-name";
import { appSource, useProviderHost } from "../helpers/provider-env";
import { appCommitted, appIdsNamed, hostPrinted, killWhen } from "../helpers/interrupted";

/*
 * Deployments interrupted through Pulumi's own dynamic-provider host: the host is killed after
 * the service committed an App's create, while the create waits for the app's setup, and during
 * an `env` replace after the new app was made. The next deployment (a fresh host) runs the step
 * again, as `pulumi up` after a crash does: the engine has no id for the interrupted create.
 * Counted at the end: the emulator's apps of the name against the id the stack holds.
 *
 * The Apps set no `name`: each is named after its resource and stack (auto-name.ts), the default.
 * With a service that honours Idempotency-Key (the emulator's default), the repeat is answered
 * with the first app: one app, no user action. With one that ignores keys, the repeat refuses,
 * naming the earlier app (it carries this App's own name) and the ways out, and leaves no second
 * app; `adoptId` then takes it. A name the program chooses may be another stack's too: the last
 * block shows what is done then.
 */

type Props = Record<string, unknown>;
type InitFailure = Error & { initFailure?: { id: string } };

describe.each([
  ["honours Idempotency-Key", true],
  ["ignores Idempotency-Key", false],
])("a service that %s", (_label, honour) => {
  const env = useProviderHost(
    { seed: `interrupted-${honour}`, setupDelayMs: 1000, honourIdempotencyKeys: honour },
    { listCacheMs: 0 },
  );
  const tag = honour ? "honour" : "ignore";

  /**
   * The App's inputs as the engine sends them: with `__provider`, and `__urn` as App sets it;
   * no `name`: the App of resource `res` is named after it (see appName).
   */
  async function appInputs(res: string, extra: Props = {}): Promise<Props> {
    const urn = env.urn("App", res);
    return env.inputs("App", { source: await sources.get(), __urn: urn, ...extra });
  }
  /** The name the App of resource `res` is given. */
  const appName = (res: string) => generatedName(env.urn("App", res));
  const sources = { dir: "", get: async () => (sources.dir ||= await appSource()) };

  /** check, then create, in the current host: one resource's create step of a deployment. */
  async function createStep(name: string, inputs: Props) {
    const urn = env.urn("App", name);
    const checked = await env.host.check(urn, {}, inputs);
    expect(checked.failures).toEqual([]);
    return env.host.create(urn, checked.inputs);
  }

  /** The next deployment repeats the create: it ends with the interrupted create's app. */
  async function repeatEndsWith(name: string, orphan: string): Promise<void> {
    await env.nextDeployment();
    if (honour) {
      const made = await createStep(name, await appInputs(name));
      expect(made.id).toBe(orphan);
      expect(appIdsNamed(env.emu, appName(name))).toEqual([made.id]);
      const said = await env.host.printed("stdout", [/an earlier attempt of this create made/]);
      expect(said).toMatch(/an earlier attempt of this create made/);
      return;
    }
    const refused = (await createStep(name, await appInputs(name)).catch(
      (e: unknown) => e,
    )) as Error;
    expect(refused.message).toContain(`adoptId: "${orphan}"`);
    expect(refused.message).toContain("this App's own generated name");
    // The repeat made an app and deleted it again: still only the earlier one.
    expect(appIdsNamed(env.emu, appName(name))).toEqual([orphan]);
    // The way out the message names first.
    const adopted = await createStep(name, await appInputs(name, { adoptId: orphan }));
    expect(adopted.id).toBe(orphan);
    expect(appIdsNamed(env.emu, appName(name))).toEqual([adopted.id]);
  }

  test("killed after the service committed the create", async () => {
    const name = `${tag}-committed`;
    const inputs = await appInputs(name);
    await killWhen(
      env.host,
      () => createStep(name, inputs),
      appCommitted(env.emu, appName(name)),
      "the service committed the create",
    );
    const made = appIdsNamed(env.emu, appName(name));
    expect(made).toHaveLength(1);
    await repeatEndsWith(name, made[0]);
  });

  test("killed while waiting for the app's setup: the id was printed first", async () => {
    const name = `${tag}-setup`;
    const inputs = await appInputs(name);
    const answered = new RegExp(`app "${appName(name)}": POST /apps answered with app (\\S+)`);
    await killWhen(
      env.host,
      () => createStep(name, inputs),
      hostPrinted(env.host, answered),
      "the host printed the app's id",
    );
    const printed = answered.exec(env.host.stdout())?.[1];
    const made = appIdsNamed(env.emu, appName(name));
    expect(made).toEqual([printed]);
    // Killed before its setup was done (setupDelayMs 1000): the create was still waiting.
    expect(env.emu.world.apps.find((a) => a.id === printed)!.setup_ready_at).toBeGreaterThan(
      Date.now(),
    );
    await repeatEndsWith(name, made[0]);
  });

  test("an env replace killed after the new app was made", async () => {
    const name = `${tag}-replace`;
    const urn = env.urn("App", name);
    const first = await createStep(name, await appInputs(name, { env: { ONE: "1" } }));
    const oldInputs = await appInputs(name, { env: { ONE: "1" } });
    const next = await appInputs(name, { env: { TWO: "2" } });

    /** The replace as the engine runs it: check, diff, create the new app, delete the old. */
    async function replaceStep(news: Props) {
      const checked = await env.host.check(urn, oldInputs, news);
      expect(checked.failures).toEqual([]);
      const diff = await env.host.diff(first.id, urn, first.properties, checked.inputs);
      expect(diff.replaces).toContain("env");
      const made = await env.host.create(urn, checked.inputs);
      await env.host.delete(first.id, urn, first.properties);
      return made;
    }

    await killWhen(
      env.host,
      () => replaceStep(next),
      appCommitted(env.emu, appName(name)),
      "the service made the new app",
    );
    const made = appIdsNamed(env.emu, appName(name)).filter((id) => id !== first.id);
    expect(made).toHaveLength(1);
    const carriesNewEnv = () => env.emu.world.apps.find((a) => a.id === made[0])!.env_keys;
    expect(carriesNewEnv()).toEqual(["TWO"]);
    await env.nextDeployment();
    if (honour) {
      const replaced = await replaceStep(next);
      expect(replaced.id).toBe(made[0]);
    } else {
      const refused = (await replaceStep(next).catch((e: unknown) => e)) as InitFailure;
      expect(refused.message).toContain(`adoptId: "${made[0]}"`);
      expect(refused.initFailure).toBeUndefined();
      // The old app is still the stack's and serves; the new one waits to be taken.
      expect(appIdsNamed(env.emu, appName(name)).sort()).toEqual([first.id, made[0]].sort());
      const replaced = await replaceStep({ ...next, adoptId: made[0] });
      expect(replaced.id).toBe(made[0]);
    }
    // One app, the one the stack holds, with the new env.
    expect(appIdsNamed(env.emu, appName(name))).toEqual(made);
    expect(carriesNewEnv()).toEqual(["TWO"]);
  });

  test("another stack of the program gets an app of its own, named apart", async () => {
    const name = `${tag}-two-stacks`;
    const one = await createStep(name, await appInputs(name));
    await env.nextDeployment();
    const otherUrn = env.urn("App", name).replace("urn:pulumi:test::", "urn:pulumi:prod::");
    const other = await createStep(name, { ...(await appInputs(name)), __urn: otherUrn });
    expect(other.id).not.toBe(one.id);
    // Each stack's App carries its own name: nothing of one is the other's.
    expect(generatedName(otherUrn)).not.toBe(appName(name));
    expect(appIdsNamed(env.emu, appName(name))).toEqual([one.id]);
    expect(appIdsNamed(env.emu, generatedName(otherUrn))).toEqual([other.id]);
  });

  test("two resources of one deployment with identical inputs but their own URNs: two apps", async () => {
    const name = `${tag}-twins`;
    // One name for both, chosen by the program: only their URNs tell them apart.
    const one = await createStep(name, await appInputs(name, { name }));
    const twinUrn = `${env.urn("App", name)}-twin`;
    const twin = await createStep(name, { ...(await appInputs(name, { name })), __urn: twinUrn });
    expect(twin.id).not.toBe(one.id);
    expect(appIdsNamed(env.emu, name).sort()).toEqual([one.id, twin.id].sort());
  });

  test("a forced replace with identical inputs (pulumi up --replace) makes a new app", async () => {
    const name = `${tag}-forced`;
    const urn = env.urn("App", name);
    const old = await createStep(name, await appInputs(name));
    await env.nextDeployment();
    // The engine diffs (no change), then replaces as asked: create first, delete the old after.
    const checked = await env.host.check(urn, await appInputs(name), await appInputs(name));
    expect((await env.host.diff(old.id, urn, old.properties, checked.inputs)).changes).toBe(false);
    const made = await env.host.create(urn, checked.inputs);
    // Same key as the old app's create: a replay of an app this stack holds is never taken.
    expect(made.id).not.toBe(old.id);
    await env.host.delete(old.id, urn, old.properties);
    expect(appIdsNamed(env.emu, appName(name))).toEqual([made.id]);
  });

  test("a pinned subdomain held by an app of this account: the 409 names that app", async () => {
    const subdomain = `${tag}-pinned`;
    const holder = await createStep(
      `${tag}-holder`,
      await appInputs(`${tag}-holder`, { subdomain }),
    );
    const name = `${tag}-wants-it`;
    const err = (await createStep(name, await appInputs(name, { subdomain })).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toMatch(/409/);
    expect(err.message).toContain(`held by app ${holder.id} ("${appName(`${tag}-holder`)}"`);
    // Another resource's app (it may as well be another stack's): no adoptId advised.
    expect(err.message).toContain("another stack or program may hold it");
    expect(err.message).not.toContain("adoptId");
    expect(appIdsNamed(env.emu, appName(name))).toEqual([]);
  });

  test("destroyed with retainOnDelete (the engine sends no delete), then deployed again", async () => {
    const name = `${tag}-retained`;
    const kept = await createStep(name, await appInputs(name));
    // The engine drops the resource from the stack without a delete; the app stays.
    await env.nextDeployment();
    if (honour) {
      // The service answers the same key with the kept app: taken back, and the output says so.
      const again = await createStep(name, await appInputs(name));
      expect(again.id).toBe(kept.id);
      const taken = "or one kept by retainOnDelete: it is taken";
      expect(await env.host.printed("stdout", [taken])).toContain(taken);
    } else {
      // Only the program takes it back: the refusal names it and adoptId.
      const refused = (await createStep(name, await appInputs(name)).catch(
        (e: unknown) => e,
      )) as Error;
      expect(refused.message).toContain("or a destroy with retainOnDelete");
      expect(refused.message).toContain(`adoptId: "${kept.id}"`);
    }
    expect(appIdsNamed(env.emu, appName(name))).toEqual([kept.id]);
  });

  test("destroyed, then deployed again with identical inputs: a new app, not the deleted one", async () => {
    const name = `${tag}-again`;
    const urn = env.urn("App", name);
    const first = await createStep(name, await appInputs(name));
    await env.host.delete(first.id, urn, first.properties);
    expect(appIdsNamed(env.emu, appName(name))).toEqual([]);
    await env.nextDeployment();
    const second = await createStep(name, await appInputs(name));
    expect(second.id).not.toBe(first.id);
    expect(appIdsNamed(env.emu, appName(name))).toEqual([second.id]);
    if (honour) {
      expect(await env.host.printed("stdout", [/which is gone since/])).toMatch(
        /which is gone since/,
      );
    }
  });
});

describe.each([
  ["honours Idempotency-Key", true],
  ["ignores Idempotency-Key", false],
])("a name the program chooses, on a service that %s", (_label, honour) => {
  const env = useProviderHost(
    { seed: `chosen-${honour}`, setupDelayMs: 0, honourIdempotencyKeys: honour },
    { listCacheMs: 0 },
  );
  const tag = honour ? "honour" : "ignore";
  const inputsOf = async (urn: string, name: string) =>
    env.inputs("App", { source: await appSource(), name, __urn: urn });
  async function createStep(urn: string, inputs: Props) {
    const checked = await env.host.check(urn, {}, inputs);
    expect(checked.failures).toEqual([]);
    return env.host.create(urn, checked.inputs);
  }

  test("stacks of one program (review stacks) deploy and destroy side by side", async () => {
    const name = `${tag}-web`;
    const urns = ["pr-10", "pr-1", "pr-2"].map((stack) =>
      env.urn("App", "web").replace("urn:pulumi:test::", `urn:pulumi:${stack}::`),
    );
    const made = [];
    for (const urn of urns) {
      made.push(await createStep(urn, await inputsOf(urn, name)));
      await env.nextDeployment();
    }
    expect(new Set(made.map((m) => m.id)).size).toBe(3);
    expect(appIdsNamed(env.emu, name).sort()).toEqual(made.map((m) => m.id).sort());
    // What each later stack saw besides its own app is reported, not refused, never taken.
    expect(env.host.stdout()).not.toContain("adoptId");
    // pr-1 is destroyed: pr-10's and pr-2's apps stay.
    await env.host.delete(made[1].id, urns[1], made[1].properties);
    expect(appIdsNamed(env.emu, name).sort()).toEqual([made[0].id, made[2].id].sort());
  }, 180_000);

  test("killed after the service committed: the repeat names the earlier app, advises no adoptId", async () => {
    const name = `${tag}-killed`;
    const urn = env.urn("App", "killed");
    const inputs = await inputsOf(urn, name);
    await killWhen(
      env.host,
      () => createStep(urn, inputs),
      appCommitted(env.emu, name),
      "the service committed the create",
    );
    const [orphan] = appIdsNamed(env.emu, name);
    await env.nextDeployment();
    const made = await createStep(urn, await inputsOf(urn, name));
    if (honour) {
      // The key says it is this create's: taken, one app.
      expect(made.id).toBe(orphan);
      expect(appIdsNamed(env.emu, name)).toEqual([orphan]);
      return;
    }
    // Nothing tells it from another stack's app: a new one is made, the earlier one named.
    expect(made.id).not.toBe(orphan);
    expect(appIdsNamed(env.emu, name).sort()).toEqual([orphan, made.id].sort());
    const said = await env.host.printed("stdout", [`exist besides: ${orphan}`, "nobody's now"]);
    expect(said).toContain(`exist besides: ${orphan}`);
    expect(said).toContain("it is nobody's now: delete it");
    expect(said).not.toContain("adoptId");
  });
});

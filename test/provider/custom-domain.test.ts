import { expectNoToken, useInProcessProvider } from "../helpers/provider-env";

const env = useInProcessProvider({ setupDelayMs: 0, domainActivationMs: 300 }, { listCacheMs: 0 });

const newApp = (name: string) => env.newApp(name);

describe("CustomDomain, called as Pulumi's provider host calls it", () => {
  const urn = env.urn("CustomDomain", "www");

  test("create gives the DNS records to make; read, no-op diff, replace delete-first, delete", async () => {
    const app = await newApp("site");
    const program = { appId: app.id, domain: "WWW.Site.Pointed.Test" };
    const checked = await env.host.check(urn, {}, await env.inputs("CustomDomain", program));
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.domain).toBe("www.site.pointed.test");

    const created = await env.host.create(urn, checked.inputs);
    const p = created.properties;
    expect(p).toMatchObject({
      status: "pending",
      hostname: "www.site.pointed.test",
      cname: expect.any(String),
    });
    const records = p.dnsRecords as Array<{
      type: string;
      name: string;
      value: string;
      purpose: string;
    }>;
    expect(records.map((r) => r.purpose)).toEqual(["routing", "ownership", "ssl"]);
    expect(records[0]).toEqual({
      type: "CNAME",
      name: "www.site.pointed.test",
      value: p.cname,
      purpose: "routing",
    });
    expect(records.slice(1).every((r) => r.type === "TXT" && r.name && r.value)).toBe(true);
    expect((p.ssl as { validationRecords: unknown[] }).validationRecords).toHaveLength(1);
    expect(env.emu.world.apps.find((a) => a.id === app.id)!.domain?.hostname).toBe(
      "www.site.pointed.test",
    );

    const read = await env.host.read(created.id, urn, p);
    expect(read.id).toBe(created.id);
    expect(await env.host.diff(created.id, urn, p, checked.inputs)).toMatchObject({
      changes: false,
    });

    const other = await env.host.check(
      urn,
      {},
      await env.inputs("CustomDomain", { ...program, domain: "api.site.pointed.test" }),
    );
    expect(await env.host.diff(created.id, urn, p, other.inputs)).toEqual({
      changes: true,
      replaces: ["domain"],
      deleteBeforeReplace: true,
    });
    expectNoToken([checked, created, read], env.token);

    await env.host.delete(created.id, urn, p);
    expect(env.emu.world.apps.find((a) => a.id === app.id)!.domain).toBeNull();
    await env.host.delete(created.id, urn, p); // already gone
  });

  test("drift: a domain removed behind the stack's back disappears on refresh", async () => {
    const app = await newApp("drift");
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("CustomDomain", { appId: app.id, domain: "d.pointed.test" }),
    );
    const created = await env.host.create(urn, c.inputs);
    env.emu.world.apps.find((a) => a.id === app.id)!.domain = null;
    expect((await env.host.read(created.id, urn, created.properties)).id).toBe("");
  });

  test("delete leaves alone a domain that is no longer ours", async () => {
    const app = await newApp("moved");
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("CustomDomain", { appId: app.id, domain: "old.pointed.test" }),
    );
    const created = await env.host.create(urn, c.inputs);
    const rec = env.emu.world.apps.find((a) => a.id === app.id)!;
    rec.domain = { ...rec.domain!, hostname: "someone-else.pointed.test" };
    await env.host.delete(created.id, urn, created.properties);
    expect(rec.domain?.hostname).toBe("someone-else.pointed.test");
  });

  test("an in-place setting removed from the program leaves the state: the next diff is clean", async () => {
    const app = await newApp("unset");
    const program = { appId: app.id, domain: "unset.pointed.test" };
    const timed = await env.host.check(
      urn,
      {},
      await env.inputs("CustomDomain", { ...program, activeTimeoutSeconds: 60 }),
    );
    const created = await env.host.create(urn, timed.inputs);
    const plain = await env.host.check(
      urn,
      timed.inputs,
      await env.inputs("CustomDomain", program),
    );
    expect(await env.host.diff(created.id, urn, created.properties, plain.inputs)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const updated = await env.host.update(created.id, urn, created.properties, plain.inputs);
    expect(updated.activeTimeoutSeconds).toBeUndefined();
    expect(updated.dnsRecords).toEqual(created.properties.dnsRecords);
    expect(await env.host.diff(created.id, urn, updated, plain.inputs)).toMatchObject({
      changes: false,
    });
  });

  test("waitForActive waits until the hostname is active", async () => {
    const app = await newApp("waiting");
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("CustomDomain", {
        appId: app.id,
        domain: "w.pointed.test",
        waitForActive: true,
      }),
    );
    const created = await env.host.create(urn, c.inputs);
    expect(created.properties.status).toBe("active");
  });

  test("waitForActive past its timeout keeps the domain in state as failed to initialise", async () => {
    const app = await newApp("slowdns");
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("CustomDomain", {
        appId: app.id,
        domain: "slow.pointed.test",
        waitForActive: true,
        activeTimeoutSeconds: 0.1,
      }),
    );
    const err = (await env.host.create(urn, c.inputs).catch((e: unknown) => e)) as {
      initFailure?: { id: string; properties: Record<string, unknown> };
    };
    expect(err.initFailure?.id).toBeTruthy();
    expect(env.emu.world.apps.find((a) => a.id === app.id)!.domain?.hostname).toBe(
      "slow.pointed.test",
    );
    // The next `pulumi up` updates the resource that failed to initialise: it waits again.
    const patient = await env.host.check(
      urn,
      c.inputs,
      await env.inputs("CustomDomain", {
        appId: app.id,
        domain: "slow.pointed.test",
        waitForActive: true,
        activeTimeoutSeconds: 60,
      }),
    );
    const failed = err.initFailure!;
    const updated = await env.host.update(failed.id, urn, failed.properties, patient.inputs);
    expect(updated.status).toBe("active");
  });

  test("a failed look while waiting for active keeps the attached domain in state", async () => {
    const app = await newApp("flaky");
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("CustomDomain", {
        appId: app.id,
        domain: "flaky.pointed.test",
        waitForActive: true,
      }),
    );
    // The attach goes through; the re-attach that reads its state is refused.
    env.emu.setFaults({ rules: [{ route: "POST /apps/{app_id}/domains", status: 400, after: 1 }] });
    try {
      const err = (await env.host.create(urn, c.inputs).catch((e: unknown) => e)) as {
        message: string;
        initFailure?: { id: string; properties: Record<string, unknown> };
      };
      expect(err.message).toMatch(/attached but waiting for it to be active failed/);
      expect(err.initFailure?.id).toBeTruthy();
      expect(err.initFailure?.properties).toMatchObject({ domain: "flaky.pointed.test" });
    } finally {
      env.emu.setFaults({});
    }
    expect(env.emu.world.apps.find((a) => a.id === app.id)!.domain?.hostname).toBe(
      "flaky.pointed.test",
    );
  });

  test("an unpointed domain fails create with the CNAME to make; bad hostnames fail check with no request", async () => {
    const app = await newApp("unpointed");
    const c = await env.host.check(
      urn,
      {},
      await env.inputs("CustomDomain", { appId: app.id, domain: "www.example.com" }),
    );
    await expect(env.host.create(urn, c.inputs)).rejects.toThrow(/CNAME record www.example.com → /);
    env.emu.resetStats();
    for (const domain of ["https://x.com", "x", "a..b.com", "host:8080.com"]) {
      const bad = await env.host.check(
        urn,
        {},
        await env.inputs("CustomDomain", { appId: app.id, domain }),
      );
      expect(bad.failures).toEqual([
        { property: "domain", reason: expect.stringMatching(/hostname such as/) },
      ]);
    }
    expect(env.emu.stats().total).toBe(0);
  });
});

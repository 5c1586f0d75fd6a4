import { OWNER_KEY } from "../../src/connection";
import type { IncomingMessage, ServerResponse } from "node:http";
import * as hosting from "../../src";
import { HostingClient } from "../../src/api";
import { closeProgramClients as closeClients } from "../../src/connection/program-clients";
import { appFields } from "../../src/provider/app/fields";
import { customDomainFields } from "../../src/provider/custom-domain/fields";
import { fixtureServer } from "../helpers/fixture-server";
import { InProcessProvider } from "../helpers/in-process-provider";
import { useInProcessProvider } from "../helpers/provider-env";

/*
 * A server's reply is hostile until checked: outputs are declared, never copied. A real app made
 * on the emulator is then read (and a domain attached) through a real HTTP server whose replies
 * carry every input name, `account`, the provider's own keys and a field nested 20,000 deep.
 */

const env = useInProcessProvider({ setupDelayMs: 0 }, { listCacheMs: 0 });

/** A JSON value nested `depth` objects deep, as text (JSON.stringify would overflow). */
const deep = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** Every input name in both spellings, with values no program would set. */
function poison(names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of [...names, "account", "__provider", "id"]) {
    out[n] = { hostile: true };
    out[n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = "hostile";
  }
  out.account = "attacker";
  out.env = { STOLEN: "1" };
  out.source_hash = "0".repeat(64);
  out.sourceHash = "0".repeat(64);
  out.adopt_id = "00000000-0000-4000-8000-000000000000";
  out.setup_timeout_seconds = 1;
  return out;
}

/** A reply carrying a raw JSON text (so it can hold the deep field) for one route. */
function route(answers: Partial<Record<string, () => string>>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const key = `${req.method} ${(req.url ?? "").replace(/[0-9a-f-]{36}/g, ":id")}`;
    const body = answers[key];
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    res.end(body ? body() : '{"detail":"not found"}');
  };
}

/** A provider (in-process, its bags through Struct as the host's are) that talks to `url`. */
async function hostAt(url: string, token: string): Promise<InProcessProvider> {
  const host = await InProcessProvider.start({ HOSTING_LIST_CACHE_MS: "0" }, env.clock);
  await host.configure({ "hosting:apiUrl": url, "hosting:token": token });
  return host;
}

test("App read maps the documented summary fields only; state and the next diff are untouched", async () => {
  const urn = env.urn("App", "hostile");
  const created = await env.newApp("hostile-read");
  const state = created.properties;
  const real = (await new HostingClient({ apiUrl: env.emu.url, token: env.token }).listApps())
    .map((e) => e.app)
    .find((a) => a.id === created.id)!;
  const planted = { ...poison(Object.keys(appFields)), ...real, ram: 1024 };
  // The real fields last: the poison may only land where a documented field has that name.
  const summary = JSON.stringify(planted).replace(/}$/, `,"deep":${deep(20_000)}}`);

  const server = await fixtureServer([route({ "GET /apps": () => `[{"app":${summary}}]` })]);
  const host = await hostAt(server.url, env.token);
  try {
    const read = await host.read(created.id, urn, state);
    const after = read.properties;
    // Inputs and what the provider keeps for itself are as they were.
    for (const key of [
      "source",
      "env",
      "sourceHash",
      "adoptId",
      "setupTimeoutSeconds",
      "runtime",
    ]) {
      expect([key, after[key]]).toEqual([key, state[key]]);
    }
    expect(after.account).toBeUndefined();
    expect(after.__provider).toBe(state.__provider);
    // Only declared names (and the owner record) are outputs: nothing unknown, nothing deep, no
    // snake_case copies.
    const allowed = new Set([...Object.keys(appFields), "account", "__provider", OWNER_KEY]);
    expect(Object.keys(after).filter((k) => !allowed.has(k))).toEqual([]);
    // A documented field is still read: the platform's RAM shows, as drift would.
    expect(after.ram).toBe(1024);
    expect(after.userId).toBe(real.user_id);

    // The next diff against the program's inputs: RAM drift is the only change it can see.
    const program = await env.inputs("App", { source: state.source, name: "hostile-read" });
    const checked = await env.host.check(urn, state, program);
    const diff = await host.diff(created.id, urn, after, checked.inputs);
    expect(diff.replaces).toEqual([]);
    expect(diff.changes).toBe(false);
  } finally {
    await host.stop();
    await server.close();
  }
});

test("CustomDomain outputs hold the attach reply's documented fields only", async () => {
  const urn = env.urn("CustomDomain", "hostile");
  const app = await env.newApp("hostile-domain");
  const reply = {
    ...poison(Object.keys(customDomainFields)),
    message: "attached",
    cname: "edge.example.test",
    custom_hostname: {
      id: "ch-1",
      hostname: "www.hostile.pointed.test",
      status: "pending",
      extra: { nested: true },
      ssl: {
        method: "txt",
        status: "pending_validation",
        unknown_field: "x",
        validation_records: [{ type: "TXT", txt_name: "_acme", txt_value: "v", secret: "s" }],
      },
      ownership_verification: { type: "txt", name: "_v", value: "o", extra_key: "x" },
    },
  };
  const text = JSON.stringify(reply)
    .replace('"extra":{"nested":true}', `"extra":${deep(20_000)}`)
    .replace('"unknown_field":"x"', `"unknown_field":${deep(20_000)}`);
  const server = await fixtureServer([
    route({ "POST /apps/:id/domains": () => text, "GET /apps": () => "[]" }),
  ]);
  const host = await hostAt(server.url, env.token);
  try {
    const program = { appId: app.id, domain: "www.hostile.pointed.test" };
    const checked = await host.check(urn, {}, await env.inputs("CustomDomain", program));
    const p = (await host.create(urn, checked.inputs)).properties;
    expect(p.appId).toBe(app.id);
    expect(p.domain).toBe("www.hostile.pointed.test");
    expect(p.account).toBeUndefined();
    const allowed = new Set([
      ...Object.keys(customDomainFields),
      "account",
      "__provider",
      OWNER_KEY,
    ]);
    expect(Object.keys(p).filter((k) => !allowed.has(k))).toEqual([]);
    expect(p.ssl).toEqual({
      method: "txt",
      status: "pending_validation",
      validationRecords: [{ type: "TXT", txtName: "_acme", txtValue: "v" }],
    });
    expect(p.ownershipVerification).toEqual({ type: "txt", name: "_v", value: "o" });
  } finally {
    await host.stop();
    await server.close();
  }
});

test("a data source reads a reply with a field nested 20,000 deep: documented fields, no overflow", async () => {
  const entry = `{"app":{"id":"a1","user_id":"u1","name":"web","extra":${deep(20_000)}}}`;
  const server = await fixtureServer([route({ "GET /apps": () => `[${entry}]` })]);
  process.env.HOSTING_API_URL = server.url;
  process.env.HOSTING_TOKEN = env.token;
  try {
    const [app] = await hosting.getApps();
    expect(app).toMatchObject({ id: "a1", userId: "u1", name: "web" });
  } finally {
    delete process.env.HOSTING_API_URL;
    delete process.env.HOSTING_TOKEN;
    await closeClients();
    await server.close();
  }
});

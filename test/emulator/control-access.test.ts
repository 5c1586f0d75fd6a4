import { connect } from "node:net";
import Fastify from "fastify";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { guardControl, isLoopbackAddress } from "../../src/emulator/control-access";

const emulators = useEmulators();

/*
 * The control API (/__emulator/*) can mint a token for any user, read every password and set
 * faults. These requests go out as raw bytes on a real socket, so that no client normalizes the
 * path or fills in a Host header before the emulator sees it.
 */

interface RawReply {
  status: number;
  body: string;
}

function raw(url: string, request: string): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    // A server that neither answers nor closes fails the test instead of hanging it.
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no reply to ${request}`)));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
  });
}

/** One request with `Connection: close`; headers given as lines, a Host only if one is given. */
function send(
  emu: RunningEmulator,
  target: string,
  opts: { method?: string; headers?: string[]; body?: string; version?: string } = {},
): Promise<RawReply> {
  const body = opts.body ?? "";
  const lines = [
    `${opts.method ?? "GET"} ${target} HTTP/${opts.version ?? "1.1"}`,
    ...(opts.headers ?? [`Host: ${new URL(emu.url).host}`]),
    "Connection: close",
    ...(body
      ? ["Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`]
      : []),
  ];
  return raw(emu.url, `${lines.join("\r\n")}\r\n\r\n${body}`);
}

// Each spelling of /__emulator/state an attacker might try; fastify serves some of them.
const stateSpellings = [
  "/__emulator/state",
  "/%5F%5Femulator/state",
  "/_%5Femulator/state",
  "/%5f%5femulator/state",
  "/__emulator/%73tate",
  "/%5F%5F%65mulator/%73tate",
  "/%255F%255Femulator/state",
  "//__emulator/state",
  "/./__emulator/state",
  "/x/../__emulator/state",
  "/__EMULATOR/state",
  "/__Emulator/State",
  "/__emulator/state/",
  "/__emulator//state",
  "/__emulator/state;x=1",
  "/__emulator;x/state",
  "/__emulator/state?",
  "/__emulator/state?secrets=include",
  "/__emulator%2Fstate",
  "http://evil.example/__emulator/state",
  "http://127.0.0.1/__emulator/state",
  "http://evil.example/%5F%5Femulator/state",
];

// Every control route, as a request that would change something or reveal a secret.
const controlRequests = [
  { method: "GET", path: "/__emulator/state" },
  { method: "HEAD", path: "/__emulator/state" },
  { method: "GET", path: "/__emulator/stats" },
  { method: "DELETE", path: "/__emulator/stats" },
  { method: "POST", path: "/__emulator/tokens", body: '{"user":"bob"}' },
  { method: "POST", path: "/__emulator/faults", body: '{"rules":[{"status":503}]}' },
  { method: "POST", path: "/__emulator/apps", body: '{"count":1}' },
  { method: "PATCH", path: "/__emulator/apps/x", body: '{"name":"taken"}' },
];

const encoded = (path: string) => path.replace("/__emulator/", "/%5F%5Femulator/");

describe("with a control token", () => {
  const TOKEN = "ctl-secret-0123456789";
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulators.start({ controlToken: TOKEN, seed: "ctl" });
  });

  test.each(stateSpellings)("GET %s without the token reveals nothing", async (target) => {
    const r = await send(emu, target);
    expect(r.status).not.toBe(200);
    expect([401, 404]).toContain(r.status);
    expect(r.body).not.toContain(emu.users[0].id);
    expect(r.body).not.toContain(emu.world.databases[0].id);
  });

  test.each(controlRequests.flatMap((r) => [r, { ...r, path: encoded(r.path) }]))(
    "$method $path without the token is refused with 401 and changes nothing",
    async ({ method, path, body }) => {
      const before = { world: JSON.stringify(emu.world), stats: emu.stats() };
      const r = await send(emu, path, {
        method,
        body,
        headers: [`Host: ${new URL(emu.url).host}`, "Authorization: Bearer ctl-secret"],
      });
      expect(r.status).toBe(401);
      expect(r.body).not.toMatch(/"token"\s*:/);
      expect({ world: JSON.stringify(emu.world), stats: emu.stats() }).toEqual(before);
      const api = await send(emu, "/apps", {
        headers: [`Host: ${new URL(emu.url).host}`, `Authorization: Bearer ${emu.issueToken()}`],
      });
      expect(api.status).toBe(200);
    },
  );

  test("a wrong token of any length is refused; the right one is let in on any spelling", async () => {
    for (const wrong of ["", "c", TOKEN.slice(0, -1), `${TOKEN}x`, TOKEN.toUpperCase()]) {
      const r = await send(emu, "/__emulator/state", {
        headers: [`Host: ${new URL(emu.url).host}`, `Authorization: Bearer ${wrong}`],
      });
      expect({ wrong, status: r.status }).toEqual({ wrong, status: 401 });
    }
    const right = [`Host: evil.example`, `Authorization: Bearer ${TOKEN}`];
    for (const target of ["/__emulator/state", "/%5F%5Femulator/state"]) {
      const r = await send(emu, target, { headers: right });
      expect(r.status).toBe(200);
      expect(r.body).toContain(emu.users[0].id);
    }
  });

  test("the signed backup download stays outside the token (its signature guards it)", async () => {
    const r = await send(emu, "/__emulator/backups/nope?expires=1&signature=00");
    expect(r.status).toBe(403);
    expect(r.body).toContain("signature does not match");
  });
});

describe("without a control token (loopback peers only)", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulators.start({ seed: "loop" });
  });
  const port = () => new URL(emu.url).port;

  test.each([
    "127.0.0.1",
    "127.0.0.1:PORT",
    "127.8.9.10:PORT",
    "localhost",
    "localhost:PORT",
    "LocalHost:PORT",
    "[::1]",
    "[::1]:PORT",
    "[0:0:0:0:0:0:0:1]:PORT",
  ])("Host: %s names this machine: answered", async (host) => {
    const r = await send(emu, "/__emulator/state", {
      headers: [`Host: ${host.replace("PORT", port())}`],
    });
    expect(r.status).toBe(200);
    expect(r.body).toContain(emu.users[0].id);
  });

  // A page whose DNS name was rebound to 127.0.0.1 still sends its own name as Host.
  test.each([
    ["a foreign name", ["Host: evil.example"]],
    ["a foreign name with the port", ["Host: evil.example:PORT"]],
    ["a name that starts like loopback", ["Host: 127.0.0.1.evil.example"]],
    ["a name that starts like localhost", ["Host: localhost.evil.example"]],
    ["localhost with a trailing dot", ["Host: localhost."]],
    ["userinfo before a foreign host", ["Host: localhost:1@evil.example"]],
    ["a path after the host", ["Host: 127.0.0.1/evil"]],
    ["another IPv6 address", ["Host: [::2]:PORT"]],
    ["an unbracketed IPv6 address", ["Host: ::1"]],
    ["a number for an address", ["Host: 2130706433"]],
    ["an empty Host", ["Host: "]],
  ])("Host with %s: 403, nothing revealed", async (_what, headers) => {
    const r = await send(emu, "/__emulator/state", {
      headers: headers.map((h) => h.replace("PORT", port())),
    });
    expect(r.status).toBe(403);
    expect(r.body).not.toContain(emu.users[0].id);
  });

  test("HTTP/1.0 without a Host header: 403", async () => {
    const r = await send(emu, "/__emulator/state", { version: "1.0", headers: [] });
    expect(r.status).toBe(403);
    expect(r.body).toContain("localhost, 127.0.0.1 or [::1]");
  });

  test("an absolute-form target names the host, whatever Host says (RFC 9112 3.2.2)", async () => {
    const loopHost = [`Host: 127.0.0.1:${port()}`];
    const foreign = await send(emu, "http://evil.example/__emulator/state", { headers: loopHost });
    expect(foreign.status).toBe(403);
    const sneaky = await send(emu, "http://localhost:1@evil.example/%5F%5Femulator/state", {
      headers: loopHost,
    });
    expect(sneaky.status).toBe(403);
    const local = await send(emu, `http://127.0.0.1:${port()}/__emulator/state`, {
      headers: ["Host: evil.example"],
    });
    expect(local.status).toBe(200);
  });

  test("a foreign Host cannot mint a token or set a fault on an encoded path either", async () => {
    const evil = ["Host: evil.example"];
    const mint = await send(emu, "/%5F%5Femulator/tokens", {
      method: "POST",
      body: "{}",
      headers: evil,
    });
    expect(mint.status).toBe(403);
    expect(mint.body).not.toMatch(/"token"/);
    const fault = await send(emu, "/_%5Femulator/faults", {
      method: "POST",
      body: '{"rules":[{"status":503}]}',
      headers: evil,
    });
    expect(fault.status).toBe(403);
    const api = await send(emu, "/apps", {
      headers: [`Host: 127.0.0.1:${port()}`, `Authorization: Bearer ${emu.issueToken()}`],
    });
    expect(api.status).toBe(200);
  });

  // A page on another site can POST a form or text to 127.0.0.1 without a preflight.
  test("a page of another site (its Origin) is refused; a local page is answered", async () => {
    const host = `Host: 127.0.0.1:${port()}`;
    for (const origin of ["http://evil.example", "https://evil.example:443", "null", "file://"]) {
      const r = await send(emu, "/__emulator/faults", {
        method: "POST",
        body: "{}",
        headers: [host, `Origin: ${origin}`],
      });
      expect({ origin, status: r.status }).toEqual({ origin, status: 403 });
    }
    const local = await send(emu, "/__emulator/state", {
      headers: [host, `Origin: http://localhost:${port()}`],
    });
    expect(local.status).toBe(200);
  });

  test("the API itself does not look at Host", async () => {
    const r = await send(emu, "/apps", {
      headers: ["Host: evil.example", `Authorization: Bearer ${emu.issueToken()}`],
    });
    expect(r.status).toBe(200);
  });
});

describe("guardControl", () => {
  test("a route under /__emulator/ that declares no access rule stops the server at start", async () => {
    const app = Fastify();
    try {
      guardControl(app, undefined);
      expect(() => app.get("/__EMULATOR/new", async () => "open")).toThrow(
        "emulator route GET /__EMULATOR/new declares no access rule",
      );
    } finally {
      await app.close();
    }
  });

  test("only loopback peers count as local: 127/8, ::1 and their IPv4-mapped forms", () => {
    for (const a of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) {
      expect(isLoopbackAddress(a)).toBe(true);
    }
    for (const a of ["10.0.0.5", "192.0.2.2", "::ffff:192.0.2.2", "fe80::1", "0.0.0.0", ""]) {
      expect(isLoopbackAddress(a)).toBe(false);
    }
    expect(isLoopbackAddress(undefined)).toBe(false);
  });
});

test("a control token that cannot travel as a Bearer token is refused at start", async () => {
  for (const bad of ["", "has space", "tab\there", "newline\n", "ünïcode"]) {
    const started = await emulators.start({ controlToken: bad }).catch((e: unknown) => e);
    if (started && typeof (started as RunningEmulator).stop === "function") {
      await (started as RunningEmulator).stop();
    }
    const err = started as { code?: string; message: string };
    expect(err.code).toBe("HOSTING_EMULATOR_CONTROL_TOKEN_INVALID");
    expect(err.message).toMatch(/^the controlToken option (is empty|holds spaces)/);
    if (bad) expect(err.message).not.toContain(bad);
  }
});

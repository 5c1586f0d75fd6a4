import { createHmac } from "node:crypto";
import { request } from "undici";
import { useEmulator } from "../helpers/emulator";

/* No header or payload shape makes authentication throw: each answer is 200 or a 401 with a reason. */

const env = useEmulator({ setupDelayMs: 0 });

const b64 = (s: string | Buffer) => Buffer.from(s).toString("base64url");
const sign = (head: string, body: string, secret: string) =>
  createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");

const SHAPES = [
  "null",
  "[]",
  "[1,2]",
  "1",
  '"HS256"',
  "true",
  "{}",
  '{"alg":null}',
  '{"alg":{}}',
  '{"alg":["HS256"]}',
  '{"alg":"none"}',
  '{"alg":"HS256"}',
  '{"alg":"HS256","__proto__":{"alg":"none"}}',
  "{",
  "",
  "\u0000",
];
const PAYLOADS = (sub: string) => [
  "null",
  "[]",
  "0",
  '"x"',
  "{}",
  '{"sub":null}',
  '{"sub":1}',
  '{"sub":{}}',
  '{"sub":"nobody"}',
  `{"sub":"${sub}","exp":"tomorrow"}`,
  `{"sub":"${sub}","exp":null}`,
  `{"sub":"${sub}","exp":1e400}`,
  `{"sub":"${sub}","exp":-1}`,
  `{"sub":["${sub}"]}`,
  `{"sub":"${sub}","exp":${Math.floor(Date.now() / 1000) + 600}}`,
];

/** A small repeatable generator for the random part. */
function* randomTokens(n: number): Generator<string> {
  let x = 0x9e3779b9;
  const next = () => ((x = (x * 1103515245 + 12345) >>> 0), x);
  const alphabet = "AZaz09-_.=+/ %\u00e9\u2028";
  for (let i = 0; i < n; i++) {
    const len = next() % 120;
    let t = "";
    for (let j = 0; j < len; j++) t += alphabet[next() % alphabet.length];
    yield t;
  }
}

async function statusFor(authorization: string) {
  const res = await request(`${env.emu.url}/apps`, { headers: { authorization } });
  const body = (await res.body.json()) as { error?: unknown };
  return { status: res.statusCode, error: body && typeof body === "object" ? body.error : body };
}

test("every header × payload shape, signed or not, is 200 or 401 with a reason", async () => {
  const secret = env.emu.world.secret;
  const sub = env.emu.users[0].id;
  const seen = new Map<number, number>();
  let served = 0;
  for (const h of SHAPES) {
    for (const p of PAYLOADS(sub)) {
      for (const signed of [true, false]) {
        const head = b64(h);
        const body = b64(p);
        const token = `${head}.${body}.${signed ? sign(head, body, secret) : "c2ln"}`;
        const r = await statusFor(`Bearer ${token}`);
        seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
        if (r.status === 200) {
          served++;
          expect(h).toMatch(/"alg":"HS256"/);
          expect(signed).toBe(true);
        } else {
          expect(r.status).toBe(401);
          expect(typeof r.error).toBe("string");
        }
      }
    }
  }
  // Only signed HS256 tokens of a real user with a finite, future exp got in (two headers).
  expect(served).toBe(2);
  expect([...seen.keys()].sort()).toEqual([200, 401]);
});

test("random bytes in the token are 401 with a reason", async () => {
  for (const t of randomTokens(300)) {
    const r = await statusFor(`Bearer ${encodeURIComponent(t)}`);
    expect(r.status).toBe(401);
    expect(typeof r.error).toBe("string");
  }
});

import * as hosting from "../../src";
import type { HostingError } from "../../src/api";
import { closeProgramClients } from "../../src/connection/program-clients";
import { useEmulator } from "../helpers/emulator";
import { FAKE_TOKEN, fixtureServer, json } from "../helpers/fixture-server";

/*
 * Data sources run in the program, with the stack's connection: a failure with a known fix
 * names the stack setting of the account the call used, not the client's option.
 */

const env = useEmulator({ setupDelayMs: 0 });
const VARS = [
  "HOSTING_API_URL",
  "HOSTING_TOKEN",
  "HOSTING_TEAM_C_TOKEN",
  "HOSTING_OFFLINE_API_URL",
  "HOSTING_OFFLINE_TOKEN",
];

beforeAll(async () => {
  process.env.HOSTING_API_URL = env.emu.url;
  process.env.HOSTING_TOKEN = FAKE_TOKEN; // well formed; the service refuses it (401)
  process.env.HOSTING_TEAM_C_TOKEN = FAKE_TOKEN;
  // An account whose URL has nothing listening.
  const gone = await fixtureServer([json(200, [])]);
  await gone.close();
  process.env.HOSTING_OFFLINE_API_URL = gone.url;
  process.env.HOSTING_OFFLINE_TOKEN = FAKE_TOKEN;
});
afterAll(async () => {
  for (const k of VARS) delete process.env[k];
  await closeProgramClients();
});

test("a refused token names hosting:token and HOSTING_TOKEN", async () => {
  const err = (await hosting.getApps().catch((e: unknown) => e)) as HostingError;
  expect(err.code).toBe("HOSTING_UNAUTHORIZED");
  expect(err.message).toMatch(
    /check hosting:token: it must be a current API token of the account; set it with `pulumi config set --secret hosting:token <token>` or the HOSTING_TOKEN environment variable$/,
  );
  expect(err.message).not.toMatch(/token option/);
});

test("with an account, the refused token names that account's key and variable", async () => {
  const err = (await hosting
    .getDatabases({ account: "team-c" })
    .catch((e: unknown) => e)) as HostingError;
  expect(err.code).toBe("HOSTING_UNAUTHORIZED");
  expect(err.message).toMatch(
    /check hosting:accounts\.team-c\.token: .* or the HOSTING_TEAM_C_TOKEN environment variable$/,
  );
  expect(err.message).not.toMatch(/hosting:token\b|token option/);
});

test("with an account, an unreachable URL names that account's apiUrl key, variable and fallback", async () => {
  const err = (await hosting
    .getDatabases({ account: "offline" })
    .catch((e: unknown) => e)) as HostingError;
  expect(err.code).toBe("HOSTING_CONNECTION_FAILED");
  expect(err.message).toMatch(
    /; check hosting:accounts\.offline\.apiUrl \(or HOSTING_OFFLINE_API_URL; without either, hosting:apiUrl\) and that the service is reachable$/,
  );
  expect(err.message).not.toMatch(/apiUrl option/);
});

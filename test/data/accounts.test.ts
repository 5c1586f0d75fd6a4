import * as hosting from "../../src";
import { closeProgramClients as closeClients } from "../../src/connection/program-clients";
import { useEmulator } from "../helpers/emulator";

/* Data sources with `account`: the environment form, and errors before any request. */

const env = useEmulator({ setupDelayMs: 0 });

beforeAll(() => {
  process.env.HOSTING_API_URL = env.emu.url;
  process.env.HOSTING_TOKEN = env.emu.issueToken("alice");
  process.env.HOSTING_TEAM_B_TOKEN = env.emu.issueToken("bob");
});
afterAll(async () => {
  for (const k of ["HOSTING_API_URL", "HOSTING_TOKEN", "HOSTING_TEAM_B_TOKEN"])
    delete process.env[k];
  await closeClients();
});

test("account team-b reads HOSTING_TEAM_B_TOKEN and the default URL: bob's databases", async () => {
  const alice = (await hosting.getDatabases()).map((d) => d.name);
  const bob = (await hosting.getDatabases({ account: "team-b" })).map((d) => d.name);
  expect(alice).toContain("alice-postgres");
  expect(bob.length).toBeGreaterThan(0);
  expect(bob).not.toContain("alice-postgres");
});

test("a malformed or unconfigured account fails before any request, saying how to fix it", async () => {
  env.emu.resetStats();
  await expect(hosting.getApps({ account: "9lives" })).rejects.toMatchObject({
    property: "account",
    message: expect.stringContaining("account must be 1-63 letters"),
  });
  await expect(hosting.getRuntimeVersions({ account: "nope" })).rejects.toThrow(
    "`pulumi config set --secret --path hosting:accounts.nope.token <token>` or the HOSTING_NOPE_TOKEN",
  );
  expect(env.emu.stats().total).toBe(0);
});

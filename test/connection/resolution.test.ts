import { readStackSettings, resolve } from "../../src/connection/resolve";
import { stackConfig } from "../../src/connection/stack-config";

/*
 * Where a connection's URL and token come from: stack config first, then the environment; a
 * named account has its own of both, borrows only the default URL, never the default token. What
 * is missing is reported naming the config key, the command that sets it and the variable.
 */

const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln";
const OTHER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ2In0.b3Ro";

const resolved = (
  config: Record<string, unknown>,
  env: Record<string, string> = {},
  account?: string,
) => resolve(readStackSettings(stackConfig(config), env), account);

describe("the default connection", () => {
  test("stack config wins over the environment", () => {
    const r = resolved(
      { "hosting:apiUrl": "https://config.example", "hosting:token": TOKEN },
      { HOSTING_API_URL: "https://env.example", HOSTING_TOKEN: OTHER },
    );
    expect(r).toEqual({ apiUrl: "https://config.example/", token: TOKEN });
  });

  test("the environment fills in what stack config leaves out", () => {
    const r = resolved({ "hosting:apiUrl": "https://config.example" }, { HOSTING_TOKEN: TOKEN });
    expect(r).toEqual({ apiUrl: "https://config.example/", token: TOKEN });
  });

  test("a blank variable counts as unset, and the message says how to set the key", () => {
    const r = resolved({ "hosting:apiUrl": "https://config.example" }, { HOSTING_TOKEN: "  " });
    expect(r).toEqual({
      problem:
        "hosting:token is not set: set it with `pulumi config set --secret hosting:token <token>` " +
        "or the HOSTING_TOKEN environment variable.",
    });
  });

  test("nothing set: both keys, both commands and both variables are named", () => {
    const { problem } = resolved({}) as { problem: string };
    expect(problem).toMatch(
      /^hosting:apiUrl is not set: .*`pulumi config set hosting:apiUrl <url>`/,
    );
    expect(problem).toContain("HOSTING_API_URL environment variable");
    expect(problem).toContain("hosting:token is not set");
    expect(problem).toContain("HOSTING_TOKEN environment variable");
  });

  test("a URL without https names the key and the fix", () => {
    const r = resolved({ "hosting:apiUrl": "ftp://x.example", "hosting:token": TOKEN });
    expect(r).toEqual({
      problem:
        "hosting:apiUrl must start with https:// (expected https://host); set it with " +
        "`pulumi config set hosting:apiUrl <url>` or the HOSTING_API_URL environment variable.",
    });
  });
});

describe("a named account", () => {
  const defaults = { "hosting:apiUrl": "https://default.example", "hosting:token": TOKEN };

  test("never borrows the default token: the message names its own key and variable", () => {
    expect(resolved(defaults, {}, "team-b")).toEqual({
      problem:
        'account "team-b" has no token: set it with ' +
        "`pulumi config set --secret --path hosting:accounts.team-b.token <token>` or the " +
        "HOSTING_TEAM_B_TOKEN environment variable.",
    });
  });

  test("borrows the default URL, with its own token from HOSTING_<NAME>_TOKEN", () => {
    const r = resolved(defaults, { HOSTING_TEAM_B_TOKEN: OTHER }, "team-b");
    expect(r).toEqual({ apiUrl: "https://default.example/", token: OTHER });
  });

  test("its entry in hosting:accounts wins over its variables", () => {
    const r = resolved(
      { "hosting:accounts": { "team-b": { apiUrl: "https://b.example", token: OTHER } } },
      { HOSTING_TEAM_B_API_URL: "https://env-b.example", HOSTING_TEAM_B_TOKEN: TOKEN },
      "team-b",
    );
    expect(r).toEqual({ apiUrl: "https://b.example/", token: OTHER });
  });

  test("its own URL variable wins over the default URL", () => {
    const r = resolved(
      defaults,
      { HOSTING_TEAM_B_API_URL: "https://env-b.example", HOSTING_TEAM_B_TOKEN: OTHER },
      "team-b",
    );
    expect(r).toEqual({ apiUrl: "https://env-b.example/", token: OTHER });
  });
});

import { HostingConfigError } from "../../src/api/errors";
import { Connection } from "../../src/connection/connection";
import { ClientPool } from "../../src/connection/pool";
import { stackConfig } from "../../src/connection/stack-config";

/*
 * Config mistakes a new user makes, and values an attacker could slip in, read the way the
 * provider's configure and the data sources read them. Each is reported naming the key and the
 * fix, and no message ever holds a value that could be a token.
 */

const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzZWNyZXQtdXNlciJ9.c2lnbmF0dXJlLXNlY3JldC12YWx1ZQ";
const URL_OK = "https://api.example.com";
const pool = new ClientPool();
afterAll(() => pool.close());

const connect = (config: Record<string, unknown>, env: Record<string, string> = {}) =>
  new Connection(stackConfig(config), env, pool);

/** Every message of a connection: stack-wide problems and those of the accounts asked for. */
function messages(c: Connection, ...accounts: Array<string | undefined>): string {
  const own = (accounts.length ? accounts : [undefined]).map((a) => c.problemOf(a) ?? "");
  return [...c.problems, ...own].join("\n");
}

/** Fails when any 8-character piece of `secret` shows in `text`. */
function expectNoEcho(text: string, secret: string) {
  for (let i = 0; i + 8 <= secret.length; i += 4) {
    expect(text).not.toContain(secret.slice(i, i + 8));
  }
}

describe("values that may be secrets are described, never quoted", () => {
  test("a token where the URL goes names hosting:apiUrl, says it looks like a token, quotes nothing", () => {
    const m = messages(connect({ "hosting:apiUrl": TOKEN, "hosting:token": TOKEN }));
    expect(m).toMatch(/^hosting:apiUrl is not a URL .*it looks like an API token/);
    expectNoEcho(m, TOKEN);
  });

  test("URL and token swapped fail with 'swapped', naming both keys", () => {
    const m = messages(connect({ "hosting:apiUrl": TOKEN, "hosting:token": URL_OK }));
    expect(m).toMatch(
      /hosting:apiUrl holds what looks like an API token and hosting:token what looks like a URL: they are swapped/,
    );
    expectNoEcho(m, TOKEN);
  });

  test("a token as a named account's apiUrl names hosting:accounts.<name>.apiUrl", () => {
    const c = connect({
      "hosting:accounts": { shared: { apiUrl: TOKEN, token: TOKEN } },
    });
    const m = messages(c, "shared");
    expect(m).toMatch(/hosting:accounts\.shared\.apiUrl is not a URL/);
    expectNoEcho(m, TOKEN);
  });

  test.each([
    ["a JWT", TOKEN],
    ["an opaque token that is a valid name", "ghp_9fQ2xLm7Rk3Vt8Wz1Yb4Nc6Hd0Js5Ae"],
  ])("an account name that is %s is never shown", (_what, name) => {
    const m = messages(connect({ "hosting:apiUrl": URL_OK }), name);
    expect(m).toMatch(
      /^(account must be 1-63 letters|the account \(name not shown\) has no token)/,
    );
    expectNoEcho(m, name);
  });

  test.each([
    ["user and password", `https://user:${TOKEN}@api.example.com`, /must not carry credentials/],
    ["a query", `https://api.example.com/?token=${TOKEN}`, /must not have a query/],
    ["a fragment", `https://api.example.com/#${TOKEN}`, /fragment/],
    ["a line break inside", `https://api.exa\nmple.com/${TOKEN}`, /spaces or control characters/],
    ["another scheme", `ftp://api.example.com/${TOKEN}`, /must start with https:\/\//],
    ["plain http to a remote host", `http://api.example.com/${TOKEN}`, /hosting:allowInsecureHttp/],
  ])("a URL with %s is refused without quoting it", (_what, url, reason) => {
    const m = messages(connect({ "hosting:apiUrl": url, "hosting:token": TOKEN }));
    expect(m).toMatch(/^hosting:apiUrl /);
    expect(m).toMatch(reason);
    expectNoEcho(m, TOKEN);
  });

  test("a token pasted into a wire limit is described, not quoted", () => {
    const c = connect({
      "hosting:apiUrl": URL_OK,
      "hosting:token": TOKEN,
      "hosting:timeoutSeconds": TOKEN,
    });
    expect(c.problems).toEqual([
      expect.stringMatching(/^hosting:timeoutSeconds is not a plain positive number/),
    ]);
    expect(() => c.client()).toThrow(HostingConfigError);
    expectNoEcho(messages(c), TOKEN);
  });

  test("a key that is itself a pasted token is not quoted; keys near no setting are the program's own", () => {
    const c = connect({
      [`hosting:${TOKEN}`]: "x",
      "hosting:region": "eu",
      "hosting:apiUrl": URL_OK,
      "hosting:token": TOKEN,
    });
    expect(c.problems).toEqual([]);
    expectNoEcho(messages(c), TOKEN);
  });
});

describe("hosting:accounts entries", () => {
  test.each([
    ["null", null, /hosting:accounts\.shared must be an object with apiUrl and token, not null/],
    ["text", "abc", /hosting:accounts\.shared must be an object .*not string/],
    ["a list", [TOKEN], /hosting:accounts\.shared must be an object .*not a list/],
    ["a number token", { token: 5 }, /hosting:accounts\.shared\.token must be text, not number/],
    [
      "a misspelt key",
      { apiurl: URL_OK, token: TOKEN },
      /hosting:accounts\.shared\.apiurl is not an account setting: did you mean hosting:accounts\.shared\.apiUrl\?/,
    ],
  ])("an entry that is %s is a config error naming the account", (_what, entry, reason) => {
    const c = connect({ "hosting:apiUrl": URL_OK, "hosting:accounts": { shared: entry } });
    expect(c.problems.join("\n")).toMatch(reason);
    expect(c.problemOf("shared")).toMatch(/^account "shared" cannot be used: /);
    expect(() => c.client("shared")).toThrow(HostingConfigError);
    expectNoEcho(messages(c, "shared"), TOKEN);
    // The default connection is not held up by a broken named one.
    expect(c.problemOf()).toMatch(/^hosting:token is not set/);
  });

  test.each([
    ["not a name", "1st account"],
    ["a token pasted as the name", TOKEN.slice(0, 40).replace(/\./g, "-")],
  ])(
    "an entry whose name is %s is reported without the name; the others still work",
    (_what, name) => {
      const c = connect({
        "hosting:accounts": {
          [name]: { apiUrl: URL_OK, token: TOKEN },
          shared: { apiUrl: URL_OK, token: TOKEN },
        },
      });
      expect(c.problems).toEqual([
        "hosting:accounts has an entry whose name is not a valid account name (not shown): " +
          "account must be 1-63 letters, digits, '-' or '_', starting with a letter " +
          '(e.g. "shared"): the name of a connection in hosting:accounts.',
      ]);
      expect(messages(c, "shared")).not.toContain(name);
      expect(c.problemOf("shared")).toBeUndefined();
      expect(() => c.client("shared")).not.toThrow();
    },
  );

  test.each([["[1]"], ["not json"], [[1, 2]], [7]])(
    "hosting:accounts = %j is an error saying what it must be",
    (raw) => {
      const c = connect({ "hosting:accounts": raw });
      expect(c.problems[0]).toMatch(/^hosting:accounts must be an object of named accounts, not /);
      expect(c.problemOf("shared")).toBe(c.problems[0]);
    },
  );
});

describe("mistakes are reported with the fix", () => {
  test("nothing set: both keys and both environment variables are named", () => {
    expect(connect({}).problemOf()).toBe(
      "hosting:apiUrl is not set: set it with `pulumi config set hosting:apiUrl <url>` or the HOSTING_API_URL environment variable. " +
        "hosting:token is not set: set it with `pulumi config set --secret hosting:token <token>` or the HOSTING_TOKEN environment variable.",
    );
  });

  test.each([
    ["hosting:apiurl", "hosting:apiUrl"],
    ["hosting:timeoutSecond", "hosting:timeoutSeconds"],
    ["hosting:Token", "hosting:token"],
    ["hosting:maxResponseMb", "hosting:maxResponseMiB"],
    ["hosting:allowInsecureHTTP", "hosting:allowInsecureHttp"],
  ])("the misspelt key %s is reported with the nearest, %s", (typo, near) => {
    const c = connect({ "hosting:apiUrl": URL_OK, "hosting:token": TOKEN, [typo]: "30" });
    expect(c.problems).toEqual([
      `${typo} is not a pulumi-hosting setting: did you mean ${near}? (rename it with \`pulumi config rm\` and \`pulumi config set\`)`,
    ]);
  });

  test("in a project named hosting, hosting:* keys may be the project's own: not reported", () => {
    const config = { "hosting:apiUrl": URL_OK, "hosting:token": TOKEN, "hosting:tokn": "x" };
    expect(connect(config).problems).toHaveLength(1);
    expect(new Connection(stackConfig(config, "hosting"), {}, pool).problems).toEqual([]);
  });

  test("a misspelt hosting:apiUrl is said once, as the misspelling, where the URL is missing", () => {
    const c = connect({ "hosting:apiurl": URL_OK, "hosting:token": TOKEN });
    const misspelt =
      "hosting:apiurl is not a pulumi-hosting setting: did you mean hosting:apiUrl? (rename it " +
      "with `pulumi config rm` and `pulumi config set`)";
    expect(c.problems).toEqual([misspelt]);
    expect(c.problemOf()).toBe(misspelt);
    // What a check adds beside the connection's problem: nothing that says it again.
    expect(c.problemsBesides()).toEqual([]);
    // With the token missing too, each is said once.
    const both = connect({ "hosting:apiurl": URL_OK });
    expect(both.problemOf()).toBe(
      `${misspelt} hosting:token is not set: set it with ` +
        "`pulumi config set --secret hosting:token <token>` or the HOSTING_TOKEN environment variable.",
    );
    expect(both.problemsBesides()).toEqual([]);
  });

  test("a token that is not a JWT names where it came from and both ways to set it", () => {
    const fromConfig = connect({
      "hosting:apiUrl": URL_OK,
      "hosting:token": "abc def",
    }).problemOf();
    expect(fromConfig).toMatch(
      /^hosting:token does not look like a JWT.*`pulumi config set --secret hosting:token <token>` or the HOSTING_TOKEN environment variable/,
    );
    const fromEnv = connect({}, { HOSTING_API_URL: URL_OK, HOSTING_TOKEN: "a.b\n.c" }).problemOf();
    expect(fromEnv).toMatch(/^HOSTING_TOKEN does not look like a JWT/);
  });

  test("non-text values for the URL or token say so", () => {
    expect(connect({ "hosting:apiUrl": { a: 1 }, "hosting:token": TOKEN }).problemOf()).toMatch(
      /^hosting:apiUrl must be text/,
    );
    expect(connect({ "hosting:apiUrl": URL_OK, "hosting:token": 12 }).problemOf()).toMatch(
      /^hosting:token must be text/,
    );
  });

  test("surrounding whitespace (a token file's newline) is forgiven; a unicode host works", () => {
    const c = connect({
      "hosting:apiUrl": " https://bücher.example/api \n",
      "hosting:token": `${TOKEN}\n`,
    });
    expect(c.problemOf()).toBeUndefined();
    expect(c.client().apiUrl).toBe("https://xn--bcher-kva.example/api");
  });

  test.each([["1e3"], ["0x10"], ["Infinity"], ["-1"], ["0"], ["99999999"], [true]])(
    "hosting:timeoutSeconds = %j is refused, naming the key",
    (v) => {
      const c = connect({
        "hosting:apiUrl": URL_OK,
        "hosting:token": TOKEN,
        "hosting:timeoutSeconds": v,
      });
      expect(c.problems).toEqual([expect.stringMatching(/^hosting:timeoutSeconds /)]);
    },
  );

  test.each([["30"], [30], [" 2.5 "]])("hosting:timeoutSeconds = %j is accepted", (v) => {
    const c = connect({
      "hosting:apiUrl": URL_OK,
      "hosting:token": TOKEN,
      "hosting:timeoutSeconds": v,
    });
    expect(c.problems).toEqual([]);
  });

  test("plain http to another host works once hosting:allowInsecureHttp is true; other values are refused", () => {
    const base = { "hosting:apiUrl": "http://emulator:8080", "hosting:token": TOKEN };
    expect(connect(base).problemOf()).toMatch(
      /allow plain http with `pulumi config set hosting:allowInsecureHttp true`/,
    );
    expect(connect({ ...base, "hosting:allowInsecureHttp": "true" }).problemOf()).toBeUndefined();
    expect(connect(base, { HOSTING_ALLOW_INSECURE_HTTP: "true" }).problemOf()).toBeUndefined();
    expect(connect({ ...base, "hosting:allowInsecureHttp": "yes" }).problems).toEqual([
      expect.stringMatching(/^hosting:allowInsecureHttp must be true or false/),
    ]);
  });
});

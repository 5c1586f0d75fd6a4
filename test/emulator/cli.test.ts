import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { CLI, spawnEmulator } from "../helpers/spawn-emulator";

/* The built `hosting-emulator` bin, as a person runs it. */

const ENV = "HOSTING_EMULATOR_CONTROL_TOKEN";

function run(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("a mistake on the command line", () => {
  test("--prot 8080: names --port and --help, exit code 2, nothing started", () => {
    const r = run(["--prot", "8080"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown option --prot; did you mean --port?");
    expect(r.stderr).toContain("hosting-emulator --help");
    expect(r.stdout).toBe("");
  });

  test.each([
    [["--PORT", "1"], "did you mean --port?"],
    [["--sead", "x"], "did you mean --seed?"],
    [["--stat-file", "f"], "did you mean --state-file?"],
    [["--control-tokenfile", "f"], "did you mean --control-token-file?"],
    [["--rate", "5"], "did you mean --rate-limit?"],
  ])("%j: %s", (args, hint) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(hint);
    expect(r.stderr).toContain("--help");
  });

  test.each([
    [["--frobnicate"], "unknown option --frobnicate\n"],
    [["--port"], "--port <value>' argument missing"],
    [["8080"], "Unexpected argument '8080'"],
    [["--log=yes"], "'--log' does not take an argument"],
  ])("%j: says what is wrong and points at --help, exit code 2", (args, what) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(what);
    expect(r.stderr).toContain("run hosting-emulator --help for every option");
  });
});

test("--help names the control-token file option and environment variable", () => {
  const r = run(["--help"]);
  expect(r.status).toBe(0);
  expect(r.stdout).toContain("--control-token-file F");
  expect(r.stdout).toContain(ENV);
});

describe("the control token, kept out of argv", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hosting-ctl-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function controlStatus(url: string, token?: string): Promise<number> {
    const r = await request(`${url}/__emulator/stats`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    await r.body.dump();
    return r.statusCode;
  }

  test(`from ${ENV}`, async () => {
    const emu = await spawnEmulator([], { [ENV]: "from-the-env-0123" });
    try {
      expect(await controlStatus(emu.url)).toBe(401);
      expect(await controlStatus(emu.url, "from-the-env-0123")).toBe(200);
      expect(emu.stderr()).not.toContain("from-the-env-0123");
    } finally {
      await emu.stop();
    }
  });

  test("from --control-token-file (mode 600, final newline dropped); it wins over the env", async () => {
    const file = join(dir, "token");
    writeFileSync(file, "from-the-file-0123\n", { mode: 0o600 });
    const emu = await spawnEmulator(["--control-token-file", file], { [ENV]: "from-the-env" });
    try {
      expect(await controlStatus(emu.url, "from-the-env")).toBe(401);
      expect(await controlStatus(emu.url, "from-the-file-0123")).toBe(200);
    } finally {
      await emu.stop();
    }
  });

  test("--control-token still works, with a warning that argv is visible", async () => {
    const emu = await spawnEmulator(["--control-token", "in-argv-0123"]);
    try {
      expect(await controlStatus(emu.url, "in-argv-0123")).toBe(200);
      expect(emu.stderr()).toContain("--control-token is visible to every local user");
    } finally {
      await emu.stop();
    }
  });

  test.each<[string, (file: string) => void, RegExp]>([
    [
      "readable by others",
      (f) => {
        writeFileSync(f, "secret-0123\n");
        chmodSync(f, 0o644);
      },
      /can be read or changed by other users \(mode 644\); run: chmod 600 /,
    ],
    ["empty", (f) => writeFileSync(f, "", { mode: 0o600 }), /is empty/],
    ["only a newline", (f) => writeFileSync(f, "\n", { mode: 0o600 }), /is empty/],
    ["two lines", (f) => writeFileSync(f, "secret-0123\nmore\n", { mode: 0o600 }), /visible ASCII/],
    ["missing", () => undefined, /cannot read control token file .*ENOENT/],
  ])("a token file that is %s: refused at start, exit code 2", (_what, make, why) => {
    const file = join(dir, "token");
    make(file);
    const r = run(["--control-token-file", file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).not.toContain("secret-0123");
    expect(r.stdout).toBe("");
  });

  test(`an empty ${ENV}, or both options at once: refused, exit code 2`, () => {
    const empty = run([], { [ENV]: "" });
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain(`${ENV} is empty`);
    const both = run(["--control-token", "a", "--control-token-file", join(dir, "t")]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("give --control-token-file or --control-token, not both");
  });
});

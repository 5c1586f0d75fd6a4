import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { alive } from "../../scripts/dir-lock";
import { exited } from "./spawn-emulator";
import { until } from "./until";
import { ShellSession } from "./shell-session";

/*
 * The terminal the README recipe tests type into: what one command leaves (its folder, its
 * exports) the next one starts from; a failing command's code, a trailing comment, a deadline.
 */

const session = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "shell-test-")));
  return { dir, shell: new ShellSession(dir, { PATH: process.env.PATH }) };
};

describe("ShellSession", () => {
  test("cd and export carry over to the next command; an unexported variable does not", async () => {
    const { dir, shell } = session();
    mkdirSync(join(dir, "shop"));
    expect((await shell.run("cd shop && export GREETING=hi  # a comment")).code).toBe(0);
    expect(shell.cwd).toBe(join(dir, "shop"));
    await shell.run("LOCAL=1");
    const r = await shell.run('echo "$PWD $GREETING [$LOCAL]"');
    expect(r.stdout).toBe(`${join(dir, "shop")} hi []\n`);
  });

  test("a failing command gives its own exit code and output, and the session goes on", async () => {
    const { dir, shell } = session();
    const r = await shell.run("echo out; echo err >&2; (exit 3)");
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 3, stdout: "out\n" });
    expect(r.stderr).toContain("err\n");
    expect(shell.cwd).toBe(dir);
    expect((await shell.run("true")).code).toBe(0);
  });

  test("a command past its deadline is killed with what it started", async () => {
    const { shell } = session();
    const r = await shell.run("sleep 30 & echo $!; wait", 300);
    expect(r.signal).toBe("SIGKILL");
    const pid = Number(r.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    await until(`sleep ${pid} gone`, () => !alive(pid), 10_000);
  });

  test("start leaves a command running until stop", async () => {
    const { shell } = session();
    const server = shell.start("echo ready; sleep 30");
    await new Promise((resolve) => server.child.stdout!.once("data", resolve));
    expect(server.child.exitCode).toBeNull();
    server.stop();
    await exited(server.child);
    expect(server.child.signalCode).toBe("SIGTERM");
  });
});

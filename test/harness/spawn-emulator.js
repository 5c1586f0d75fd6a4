// The built `hosting-emulator` bin as a child process: its URL and token read from its first lines.
const { spawn } = require("node:child_process");
const { join } = require("node:path");
const { createInterface } = require("node:readline");
const { exited } = require("./exited");
const { ROOT } = require("./pulumi-parts");

const CLI = join(ROOT, "dist", "emulator", "cli.js");

/**
 * Starts the bin (on a free port unless `--port` is given) and waits until it is listening;
 * `env` is added to this process's environment.
 */
async function spawnEmulator(args = [], env = {}) {
  const argv = [...(args.includes("--port") ? [] : ["--port", "0"]), ...args];
  const child = spawn(process.execPath, [CLI, ...argv], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d.toString()));
  const found = {};
  await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`emulator exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).on("line", (line) => {
      const m = /^(HOSTING_API_URL|HOSTING_TOKEN)=(.*)$/.exec(line);
      if (m) found[m[1]] = m[2];
      if (found.HOSTING_API_URL && found.HOSTING_TOKEN) resolve();
    });
  });
  child.removeAllListeners("exit");
  return {
    child,
    /** What the bin wrote to stderr so far. */
    stderr: () => stderr,
    url: found.HOSTING_API_URL,
    token: found.HOSTING_TOKEN,
    /** SIGTERM, then wait for the process to be gone. */
    stop: () => {
      child.kill("SIGTERM");
      return exited(child);
    },
  };
}

module.exports = { spawnEmulator, exited, CLI };

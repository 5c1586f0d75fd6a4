// The `hosting-emulator` bin as a child process: its URL and token read from its first lines.
const { spawn } = require("node:child_process");
const { join } = require("node:path");
const { createInterface } = require("node:readline");
const { exited } = require("./exited");
const { ROOT } = require("./pulumi-parts");

const CLI = join(ROOT, "dist", "emulator", "cli.js");
// A start takes a second; on a loaded machine, through npx, several.
const START_MS = 120_000;

/**
 * Waits until a started emulator (`child`, stdout and stderr piped) has printed its URL and
 * token, and gives them; `signal` stops it (SIGTERM to the child unless given). Rejects, the
 * child stopped, when it exits first or prints neither within START_MS.
 */
async function emulatorOf(child, signal = () => child.kill("SIGTERM")) {
  let stderr = "";
  let stdout = "";
  child.stderr.on("data", (d) => (stderr += d.toString()));
  const found = {};
  let timer;
  let onExit;
  try {
    await new Promise((resolve, reject) => {
      timer = setTimeout(() => {
        signal();
        reject(new Error(`emulator printed no URL and token within ${START_MS} ms: ${stderr}`));
      }, START_MS);
      onExit = (code) => reject(new Error(`emulator exited ${code}: ${stderr}`));
      child.once("exit", onExit);
      createInterface({ input: child.stdout }).on("line", (line) => {
        stdout += `${line}\n`;
        const m = /^(HOSTING_API_URL|HOSTING_TOKEN)=(.*)$/.exec(line);
        if (m) found[m[1]] = m[2];
        if (found.HOSTING_API_URL && found.HOSTING_TOKEN) resolve();
      });
    });
  } finally {
    clearTimeout(timer);
    child.off("exit", onExit);
  }
  return {
    child,
    /** What the bin wrote to stderr so far. */
    stderr: () => stderr,
    /** What the bin wrote to stdout so far. */
    stdout: () => stdout,
    url: found.HOSTING_API_URL,
    token: found.HOSTING_TOKEN,
    /** `signal`, then wait for the process to be gone. */
    stop: () => {
      signal();
      return exited(child);
    },
  };
}

/**
 * Starts this repository's built bin (on a free port unless `--port` is given) and waits until it
 * is listening; `env` is added to this process's environment.
 */
function spawnEmulator(args = [], env = {}) {
  const argv = [...(args.includes("--port") ? [] : ["--port", "0"]), ...args];
  const child = spawn(process.execPath, [CLI, ...argv], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  return emulatorOf(child);
}

module.exports = { spawnEmulator, emulatorOf, exited, CLI };

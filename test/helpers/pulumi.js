/*
 * Runs Pulumi programs through the real Pulumi CLI (scripts/pulumi-cli.js finds or builds it),
 * as a user would: a project folder, `pulumi stack init`, `pulumi config set`, then `preview`,
 * `up`, `refresh`, `destroy`, `stack export` / `import`. Everything stays local: a file backend,
 * the passphrase secrets provider, a PULUMI_HOME of the stack's own, no update checks and no
 * plugin downloads.
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { locate, locateYaml } = require("../../scripts/pulumi-cli");

const PASSPHRASE = "engine-test-passphrase";

/** The CLI, or why there is none (then the engine suites report themselves skipped). */
function engine() {
  return locate();
}

/**
 * Parses `--event-log` output: one engine event per line.
 * @param {string} file
 */
function readEvents(file) {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/**
 * Steps of a run from its events. A step's outcome is in its outputs event (a refresh's
 * pre-event says only "refresh"); a preview's pre-events carry the plan.
 */
function stepsOf(events) {
  return events
    .map(
      (e) => e.resOutputsEvent ?? (e.resourcePreEvent?.planning ? e.resourcePreEvent : undefined),
    )
    .filter((e) => e !== undefined)
    .map(({ metadata: m }) => ({
      op: m.op,
      urn: m.urn,
      type: m.type,
      name: m.urn.split("::").pop(),
      // `keys`: the properties whose change planned the step (`diffs` is often left empty).
      diffs: [...new Set([...(m.diffs ?? []), ...(m.keys ?? [])])],
      detailedDiff: m.detailedDiff ?? undefined,
    }));
}

/** Diagnostics the engine reported (errors and warnings), in order. */
function diagnosticsOf(events) {
  return events.filter((e) => e.diagnosticEvent).map((e) => e.diagnosticEvent);
}

/** Every process below `pid` (Linux /proc; none elsewhere), read before anything is killed. */
function descendantsOf(pid) {
  const children = new Map();
  let names = [];
  try {
    names = fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  for (const n of names) {
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing paren.
      const stat = fs.readFileSync(`/proc/${n}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(n)]);
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const queue = [pid];
  while (queue.length) {
    for (const c of children.get(queue.shift()) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

function kill(pid, signal = "SIGKILL") {
  try {
    process.kill(pid, signal);
  } catch (err) {
    if (err.code !== "ESRCH") throw err;
  }
}

/**
 * SIGKILL (or `signal`) to the CLI and every process it started (language host, program,
 * plugins). The CLI starts each plugin in a process group of its own, so the CLI's group does not
 * reach them: killed that way alone, the dynamic provider's host ran on after the test, orphaned.
 */
function killGroup(child, signal = "SIGKILL") {
  const below = descendantsOf(child.pid);
  kill(-child.pid, signal);
  for (const pid of below) {
    kill(-pid, signal);
    kill(pid, signal);
  }
}

/*
 * The CLIs still running. Each has a process group of its own (so a test can kill one mid-run),
 * which also means nothing ends them when this process ends: a jest run stopped by a timeout
 * left programs running on for an hour. Whatever is left is killed on the way out.
 */
const running = new Set();
process.on("exit", () => running.forEach((child) => killGroup(child)));
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    running.forEach((child) => killGroup(child));
    process.kill(process.pid, signal); // then as if nobody listened
  });
}

/**
 * The environment a `pulumi` command runs in here: local, quiet, offline. A token or URL from the
 * developer's own shell never leaks in; `extra` comes last.
 * @param {{ binDir: string, home: string, backend: string, path?: string[] }} where
 */
function engineEnv(where, extra = {}) {
  const env = { ...process.env };
  delete env.HOSTING_TOKEN;
  delete env.HOSTING_API_URL;
  delete env.PULUMI_ACCESS_TOKEN;
  return {
    ...env,
    PATH: [where.binDir, ...(where.path ?? []), process.env.PATH].join(path.delimiter),
    PULUMI_HOME: where.home,
    PULUMI_BACKEND_URL: `file://${where.backend}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    // `--event-log` (the steps, read back by the tests) is offered only with this set.
    PULUMI_DEBUG_COMMANDS: "true",
    NO_COLOR: "1",
    ...extra,
  };
}

class PulumiStack {
  /**
   * @param {object} o
   * @param {string} o.dir      the project folder (holds Pulumi.yaml or gets one)
   * @param {string} o.project  project name
   * @param {string} [o.stack]  stack name ("dev")
   * @param {string} [o.work]   folder for the backend, PULUMI_HOME and event logs
   * @param {Record<string,string>} [o.env] extra environment for every command
   */
  constructor(o) {
    const found = locate();
    if ("missing" in found) throw new Error(found.missing);
    this.binDir = found.binDir;
    this.dir = o.dir;
    this.project = o.project;
    this.stack = o.stack ?? "dev";
    this.work = o.work ?? path.join(o.dir, ".pulumi-test");
    this.backend = path.join(this.work, "backend");
    this.home = path.join(this.work, "home");
    this.extraEnv = o.env ?? {};
    this.runs = 0;
    fs.mkdirSync(this.backend, { recursive: true });
    fs.mkdirSync(this.home, { recursive: true });
  }

  /** The environment every command of this stack runs in (see `engineEnv`). */
  env(extra = {}) {
    return engineEnv(this, { ...this.extraEnv, ...extra });
  }

  /**
   * Runs `pulumi <args>` in the project folder.
   * @returns {Promise<{ code: number|null, signal: string|null, stdout: string, stderr: string, ms: number }>}
   */
  pulumi(args, o = {}) {
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(this.binDir, "pulumi"), args, {
        cwd: this.dir,
        env: this.env(o.env),
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group, so a test can kill the CLI with everything it started.
        detached: true,
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d) => {
        stdout += d;
        o.onStdout?.(d, child);
      });
      child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
      running.add(child);
      const timer = setTimeout(() => killGroup(child), o.timeoutMs ?? 240_000);
      child.on("error", (err) => {
        clearTimeout(timer);
        running.delete(child);
        reject(err);
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        running.delete(child);
        resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
      });
      o.onSpawn?.(child);
    });
  }

  /** `pulumi <args>` that must succeed. */
  async ok(args, o) {
    const r = await this.pulumi(args, o);
    if (r.code !== 0) {
      throw new Error(
        `pulumi ${args.join(" ")} failed (${r.code ?? r.signal}):\n${r.stdout}\n${r.stderr}`,
      );
    }
    return r;
  }

  /** Writes Pulumi.yaml (nodejs runtime), creates the stack and sets its config. */
  async init({ config = {}, secrets = {}, main } = {}) {
    const yaml = [`name: ${this.project}`, "runtime: nodejs"];
    if (main) yaml.push(`main: ${main}`);
    fs.writeFileSync(path.join(this.dir, "Pulumi.yaml"), yaml.join("\n") + "\n");
    // A project's own package.json, as Pulumi's TypeScript template writes it: without one,
    // Pulumi's program runtime takes the `main` of the nearest package.json above (this repo's).
    const pkg = path.join(this.dir, "package.json");
    if (!fs.existsSync(pkg)) {
      fs.writeFileSync(
        pkg,
        JSON.stringify({ name: this.project, main: "index.ts" }, null, 2) + "\n",
      );
    }
    await this.ok(["stack", "init", this.stack, "--secrets-provider", "passphrase"]);
    await this.setConfig(config, secrets);
    return this;
  }

  async setConfig(config = {}, secrets = {}) {
    for (const [k, v] of Object.entries(config)) await this.ok(["config", "set", k, String(v)]);
    for (const [k, v] of Object.entries(secrets)) {
      await this.ok(["config", "set", "--secret", k, String(v)]);
    }
  }

  /**
   * One engine operation with its event log read back.
   * @param {"preview"|"up"|"refresh"|"destroy"} op
   */
  async op(op, flags = [], o = {}) {
    const log = path.join(this.work, `events-${++this.runs}-${op}.jsonl`);
    const yes = op === "preview" ? [] : ["--yes", "--skip-preview"];
    const r = await this.pulumi(
      [op, "--non-interactive", "--stack", this.stack, "--event-log", log, ...yes, ...flags],
      o,
    );
    const events = readEvents(log);
    return {
      ...r,
      ok: r.code === 0,
      events,
      steps: stepsOf(events),
      diagnostics: diagnosticsOf(events),
    };
  }

  preview(flags, o) {
    return this.op("preview", flags, o);
  }
  up(flags, o) {
    return this.op("up", flags, o);
  }
  refresh(flags, o) {
    return this.op("refresh", flags, o);
  }
  destroy(flags, o) {
    return this.op("destroy", flags, o);
  }

  /** `pulumi stack output --json --show-secrets`. */
  async outputs({ showSecrets = false } = {}) {
    const args = ["stack", "output", "--json", "--stack", this.stack];
    if (showSecrets) args.push("--show-secrets");
    return JSON.parse((await this.ok(args)).stdout);
  }

  /** `pulumi stack export` as text and as parsed JSON. */
  async exportState() {
    const r = await this.ok(["stack", "export", "--stack", this.stack]);
    return { text: r.stdout, deployment: JSON.parse(r.stdout) };
  }

  /** `pulumi stack import --file <file>`. */
  async importState(deployment) {
    const file = path.join(this.work, `import-${++this.runs}.json`);
    fs.writeFileSync(file, JSON.stringify(deployment));
    return this.ok(["stack", "import", "--stack", this.stack, "--file", file]);
  }

  /** The checkpoint file the file backend keeps (what lies on disk). */
  checkpointText() {
    const dir = path.join(this.backend, ".pulumi", "stacks", this.project);
    const file = path.join(dir, `${this.stack}.json`);
    return fs.readFileSync(file, "utf8");
  }

  /** Resources of the current state (from `stack export`), the stack itself left out. */
  async resources() {
    const { deployment } = await this.exportState();
    return (deployment.deployment.resources ?? []).filter(
      (r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"),
    );
  }
}

module.exports = {
  PulumiStack,
  engine,
  locateYaml,
  engineEnv,
  stepsOf,
  readEvents,
  killGroup,
  PASSPHRASE,
};

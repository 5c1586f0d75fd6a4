import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import type { RunningEmulator } from "../../src/emulator";
import { useEmulators } from "../helpers/emulator";
import { describeEngine, ok, projectFrom, PulumiStack } from "../helpers/engine";
import { stepwise } from "../helpers/stepwise";
import type { Workflow, WorkflowStep } from "../helpers/workflow";

/*
 * The shell steps of examples/gitops's workflows, run as GitHub runs them (`shell: bash`, the
 * step's own `env`), against real stacks: the real Pulumi CLI, a self-managed (file) backend with
 * the passphrase, the emulator. GitHub itself is outside this machine: a stand-in `gh` on PATH
 * (fixtures/gh-stub) answers pull request states and keeps issues in a file.
 */

jest.setTimeout(900_000);

const ROOT = path.resolve(__dirname, "..", "..");
const GITOPS = path.join(ROOT, "examples", "gitops");
const GH_STUB = path.join(__dirname, "fixtures", "gh-stub");
const FIXTURE = path.join(ROOT, "test", "engine", "fixtures", "review");
const PROJECT = "shop";

/** The one step of `file` whose script contains `marker`, with the workflow's own `env`. */
function stepOf(file: string, marker: string): WorkflowStep {
  const w = parse(fs.readFileSync(path.join(GITOPS, file), "utf8")) as Workflow;
  const found = Object.values(w.jobs)
    .flatMap((j) => j.steps)
    .filter((s) => s.run?.includes(marker));
  expect(found).toHaveLength(1);
  expect(found[0].shell).toBe("bash");
  return { ...found[0], env: { ...w.env, ...found[0].env } };
}

interface StepRun {
  code: number | null;
  out: string;
  /** What the step wrote to $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY. */
  output: string;
  summary: string;
}

/** What a step's `${{ … }}` expressions give on GitHub, as this machine stands in for them. */
type Values = Record<string, string>;

/**
 * Runs `step`'s script as GitHub's `shell: bash` does (`bash --noprofile --norc -eo pipefail`),
 * in the project folder. Its environment is the runner's (PATH with the CLI the workflow
 * installed, and the stand-in gh first), the backend's place (PULUMI_HOME), and the workflow's
 * and the step's `env`: each `${{ … }}` there takes its value from `values`, so what the step
 * does not pass is not there.
 */
async function runStep(
  step: WorkflowStep,
  stack: PulumiStack,
  values: Values,
  work: string,
): Promise<StepRun> {
  const base = stack.env();
  for (const key of [
    "HOSTING_API_URL",
    "HOSTING_TOKEN",
    "PULUMI_ACCESS_TOKEN",
    "PULUMI_BACKEND_URL",
    "PULUMI_CONFIG_PASSPHRASE",
    "GH_TOKEN",
    "GH_REPO",
  ]) {
    delete base[key];
  }
  const own: Record<string, string> = {};
  for (const [key, value] of Object.entries(step.env ?? {})) {
    if (!value.includes("${{")) own[key] = value;
    else if (key in values) own[key] = values[key];
    else throw new Error(`the step passes ${key} (${value}); the test has no value for it`);
  }
  const output = path.join(work, "github-output");
  const summary = path.join(work, "step-summary");
  const script = path.join(work, "step.sh");
  fs.writeFileSync(output, "");
  fs.writeFileSync(summary, "");
  fs.writeFileSync(script, step.run!);
  const env = {
    ...base,
    ...own,
    PATH: [GH_STUB, base.PATH].join(path.delimiter),
    GH_STUB_DIR: ghDir(work),
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_SERVER_URL: "https://github.invalid",
    GITHUB_REPOSITORY: "acme/shop",
    GITHUB_RUN_ID: "42",
  };
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: stack.dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({
        code,
        out,
        output: fs.readFileSync(output, "utf8"),
        summary: fs.readFileSync(summary, "utf8"),
      });
    });
  });
}

/** Where the stand-in gh keeps its world for the steps run from `work`. */
const ghDir = (work: string) => path.join(work, "github");

/** The stand-in gh's world: pull requests, issues, and the calls it saw. */
class GitHub {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }
  prs(prs: Record<number, { state: string; closedAt: string | null }>) {
    fs.writeFileSync(path.join(this.dir, "prs.json"), JSON.stringify(prs));
  }
  issues(): Array<{
    number: number;
    title: string;
    state: string;
    body: string;
    comments: string[];
  }> {
    const file = path.join(this.dir, "issues.json");
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : [];
  }
  /** The calls since the last look, each as its arguments. */
  calls(): string[][] {
    const file = path.join(this.dir, "calls.jsonl");
    if (!fs.existsSync(file)) return [];
    const lines = fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
    fs.rmSync(file);
    return lines.map((l) => JSON.parse(l));
  }
}

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

describeEngine("the GitOps workflows' shell steps, against real stacks", () => {
  let emu: RunningEmulator;
  const emulators = useEmulators();
  let dir: string;
  let work: string;
  let gh: GitHub;
  const stacks: Record<string, PulumiStack> = {};
  let values: Values;
  // One story: each step takes the stacks and issues the one before it left.
  const step = stepwise(300_000);
  const appOf = (name: string) => emu.world.apps.find((a) => a.name === name);

  beforeAll(async () => {
    // The scripts read JSON with jq, as GitHub's runners have it (.ci/run installs it).
    if (spawnSync("jq", ["--version"]).status !== 0) {
      throw new Error("the workflows' shell steps need jq on PATH: apt-get install jq");
    }
    emu = await emulators.start({ seed: "gitops-scripts", setupDelayMs: 0 });
    dir = projectFrom(FIXTURE);
    work = fs.mkdtempSync(path.join(path.dirname(dir), "steps-"));
    gh = new GitHub(ghDir(work));
    const token = emu.issueToken();
    const env = { HOSTING_API_URL: emu.url, HOSTING_TOKEN: token };
    const stackOf = (name: string) => new PulumiStack({ dir, project: PROJECT, stack: name, env });
    stacks.prod = await stackOf("prod").init();
    for (const name of ["pr-1", "pr-2", "pr-3", "pr-4", "pr-5"]) {
      stacks[name] = stackOf(name);
      await stacks[name].ok(["stack", "init", name, "--secrets-provider", "passphrase"]);
    }
    await stacks["pr-1"].ok(["config", "set", "appsDomain", "apps.review.test", "--stack", "pr-1"]);
    for (const name of ["prod", "pr-1", "pr-2"]) ok(await stacks[name].up());
    // What the workflows' `${{ … }}` give on GitHub, here: the repository's secrets and
    // variables for a self-managed backend (PULUMI_ORG unset, so the organization is
    // "organization"), and the job's token for gh.
    const engineEnv = stacks.prod.env();
    values = {
      HOSTING_API_URL: emu.url,
      HOSTING_TOKEN: token,
      PULUMI_ACCESS_TOKEN: "",
      PULUMI_BACKEND_URL: engineEnv.PULUMI_BACKEND_URL!,
      PULUMI_CONFIG_PASSPHRASE: engineEnv.PULUMI_CONFIG_PASSPHRASE!,
      GH_TOKEN: "job-token",
      GH_REPO: "acme/shop",
    };
  }, 600_000);

  const run = (file: string, marker: string, extra: Values = {}) =>
    runStep(stepOf(file, marker), stacks.prod, { ...values, ...extra }, work);

  describe("review.yml: the comment says what the stack reports", () => {
    /** The body the step hands to the comment step (GITHUB_OUTPUT's `body<<…` value). */
    const bodyOf = (output: string) => {
      const m = /^body<<(\S+)\n([\s\S]*?)\n\1\n/m.exec(output);
      expect(m).not.toBeNull();
      return m![2];
    };

    step("with appsDomain set: the URL of the subdomain the platform assigned", async () => {
      const r = await run("review.yml", "pulumi stack output", { STACK: "organization/shop/pr-1" });
      expect(r).toMatchObject({ code: 0 });
      const subdomain = appOf("shop-pr-1")!.subdomain;
      expect(subdomain).not.toBe("shop-pr-1");
      const body = bodyOf(r.output).split("\n");
      expect(body[0]).toBe("<!-- pulumi-hosting review -->");
      expect(body[1]).toBe(
        `Review environment \`organization/shop/pr-1\`: https://${subdomain}.apps.review.test`,
      );
    });

    step("without it: the assigned subdomain, and no guessed URL", async () => {
      const r = await run("review.yml", "pulumi stack output", { STACK: "organization/shop/pr-2" });
      expect(r).toMatchObject({ code: 0 });
      const body = bodyOf(r.output);
      expect(body).toContain(`subdomain \`${appOf("shop-pr-2")!.subdomain}\``);
      expect(body).not.toContain("https://");
    });
  });

  /** The project's stacks, as `pulumi stack ls` names them. */
  const stackNames = async () =>
    (
      JSON.parse((await stacks.prod.ok(["stack", "ls", "--json"])).stdout) as Array<{
        name: string;
      }>
    )
      .map((st) => st.name)
      .sort();

  describe("review-cleanup.yml: the review stacks of closed pull requests go", () => {
    step(
      "closed over an hour ago: destroyed and removed, past one that fails; the rest left alone",
      async () => {
        gh.prs({
          1: { state: "MERGED", closedAt: ago(120) },
          2: { state: "CLOSED", closedAt: ago(180) },
          3: { state: "OPEN", closedAt: null },
          // Closed five minutes ago: review.yml's own down job may still be on it.
          4: { state: "CLOSED", closedAt: ago(5) },
          // 5: GitHub does not know it.
        });
        gh.calls();
        const production = appOf("shop")!;
        // The service refuses the first app delete: one of the two closed stacks fails to go.
        emu.setFaults({ rules: [{ route: "DELETE /apps/{app_id}", status: 403, times: 1 }] });
        const r = await run("review-cleanup.yml", "gh pr view");
        emu.setFaults({});
        expect(r.code).not.toBe(0);
        const left = await stackNames();
        const [stayed, gone] = left.includes("pr-1") ? ["pr-1", "pr-2"] : ["pr-2", "pr-1"];
        expect(left).toEqual([stayed, "pr-3", "pr-4", "pr-5", "prod"].sort());
        expect(appOf(`shop-${stayed}`)).toBeDefined();
        expect(appOf(`shop-${gone}`)).toBeUndefined();
        expect(appOf("shop")).toEqual(production);
        expect(r.summary).toContain(`- removed \`${gone}\``);
        expect(r.summary).toContain(`- **still there** \`${stayed}\`: destroy or stack rm failed`);
        expect(r.out).toContain(`::error::${stayed}: destroy or stack rm failed`);
        expect(r.out).toContain("::warning::pr-5: pull request #5 could not be read");
        // One question per review stack, none about production, nothing else asked of GitHub.
        const asked = gh
          .calls()
          .map((c) => c.join(" "))
          .sort();
        expect(asked).toEqual([1, 2, 3, 4, 5].map((n) => `pr view ${n} --json state,closedAt`));

        // The next night the service takes the delete: the stack that stayed goes too.
        const again = await run("review-cleanup.yml", "gh pr view");
        expect({ code: again.code, out: again.out.slice(-2000) }).toMatchObject({ code: 0 });
        expect(await stackNames()).toEqual(["pr-3", "pr-4", "pr-5", "prod"]);
        expect(appOf(`shop-${stayed}`)).toBeUndefined();
        expect(emu.world.apps).toEqual([production]);
      },
    );
  });

  describe("drift.yml: drift in a long-lived stack is reported in an issue", () => {
    const DRIFT = "drift.yml";
    const MARKER = "--expect-no-changes";
    const title = "Drift check: prod";
    const issue = () => gh.issues().filter((i) => i.title === title);

    step("a clean stack: no issue, the run passes; review stacks are not checked", async () => {
      gh.calls();
      const r = await run(DRIFT, MARKER);
      expect({ code: r.code, out: r.out.slice(-2000) }).toMatchObject({ code: 0 });
      expect(issue()).toEqual([]);
      expect(r.summary).toContain("- `prod`: clean");
      expect(r.summary).not.toContain("pr-");
      expect(gh.calls().map((c) => c.slice(0, 2))).toEqual([["issue", "list"]]);
    });

    step(
      "drift (a custom domain removed outside Pulumi): an issue with the preview, the run fails",
      async () => {
        const app = appOf("shop")!;
        const domain = app.domain;
        app.domain = null;
        try {
          const r = await run(DRIFT, MARKER);
          expect(r.code).not.toBe(0);
          expect(r.out).toContain("::error::prod: drift");
          const [opened] = issue();
          expect(opened).toMatchObject({ state: "open", comments: [] });
          expect(opened.body).toContain("The service no longer matches the state of `prod`");
          expect(opened.body).toContain("https://github.invalid/acme/shop/actions/runs/42");
          expect(opened.body).toMatch(
            /\+\s+pulumi-nodejs:dynamic\/hosting:CustomDomain: \(create\)/,
          );

          // Still there the next morning: a comment on the open issue, not a second issue.
          const again = await run(DRIFT, MARKER);
          expect(again.code).not.toBe(0);
          expect(issue()).toHaveLength(1);
          expect(issue()[0].comments).toHaveLength(1);
          expect(issue()[0].comments[0]).toContain("The service no longer matches");
        } finally {
          app.domain = domain;
        }
      },
    );

    step("clean again: the issue is closed with a comment", async () => {
      const r = await run(DRIFT, MARKER);
      expect({ code: r.code, out: r.out.slice(-2000) }).toMatchObject({ code: 0 });
      expect(issue()).toEqual([expect.objectContaining({ state: "closed" })]);
      expect(issue()[0].comments.at(-1)).toContain("No drift in `prod` any more");
    });

    step("a preview that fails (a revoked token) is reported as such, not as drift", async () => {
      const r = await run(DRIFT, MARKER, { HOSTING_TOKEN: "not-a-token" });
      expect(r.code).not.toBe(0);
      expect(r.out).toContain("::error::prod: failed");
      const reopened = issue().filter((i) => i.state === "open");
      expect(reopened).toHaveLength(1);
      expect(reopened[0].body).toContain("could not run: its preview failed");
      expect(reopened[0].body).not.toContain("no longer matches");
    });
  });
});

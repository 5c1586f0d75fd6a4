import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import type { Workflow, WorkflowStep } from "../helpers/workflow";

/*
 * The workflows of examples/gitops, read and held to what its README promises (no runner here):
 * every job has a timeout, every Pulumi CLI is the version pulumi-hosting is tested with, every
 * step that runs Pulumi gets the backend's passphrase from a repository secret and secrets reach
 * no other step, and the two scheduled workflows run on a schedule (and by hand). What their
 * shell steps do is run for real in gitops-scripts.test.ts.
 */

const ROOT = path.resolve(__dirname, "..", "..");
const GITOPS = path.join(ROOT, "examples", "gitops");

/** The CLI version the tests run (scripts/pulumi-cli.js). */
const PULUMI_VERSION = /^const PULUMI_VERSION = "([^"]+)";$/m.exec(
  fs.readFileSync(path.join(ROOT, "scripts", "pulumi-cli.js"), "utf8"),
)![1];

const files = fs.readdirSync(GITOPS).filter((f) => f.endsWith(".yml"));
const read = (file: string) => parse(fs.readFileSync(path.join(GITOPS, file), "utf8")) as Workflow;

const isPulumiAction = (s: WorkflowStep) => s.uses?.startsWith("pulumi/actions@") ?? false;
/** A step that runs a Pulumi command (the action with a `command`, or a script calling pulumi). */
const runsPulumi = (s: WorkflowStep) =>
  (isPulumiAction(s) && s.with?.command !== undefined) ||
  /(^|[\s($;&|])pulumi\s/m.test(s.run ?? "");

test("the four workflows are there", () => {
  expect(files.sort()).toEqual(["drift.yml", "pulumi.yml", "review-cleanup.yml", "review.yml"]);
});

describe.each(files)("examples/gitops/%s", (file) => {
  const w = read(file);
  const jobs = Object.entries(w.jobs);

  test("every job has a timeout of at most an hour", () => {
    for (const [name, job] of jobs) {
      const minutes = job["timeout-minutes"];
      expect({ name, minutes: typeof minutes }).toEqual({ name, minutes: "number" });
      expect(minutes).toBeGreaterThan(0);
      expect(minutes).toBeLessThanOrEqual(60);
    }
  });

  test(`every Pulumi CLI is ${PULUMI_VERSION}, installed before any script runs pulumi`, () => {
    for (const [, job] of jobs) {
      const actions = job.steps.filter(isPulumiAction);
      for (const s of actions) expect(s.with?.["pulumi-version"]).toBe(PULUMI_VERSION);
      const firstInstall = job.steps.findIndex(isPulumiAction);
      job.steps.forEach((s, i) => {
        if (s.run && runsPulumi(s)) expect(firstInstall).toBeGreaterThanOrEqual(0);
        if (s.run && runsPulumi(s)) expect(i).toBeGreaterThan(firstInstall);
      });
    }
  });

  test("every step that runs Pulumi reaches Pulumi Cloud or a self-managed backend with its passphrase", () => {
    const pulumiSteps = jobs.flatMap(([, job]) => job.steps.filter(runsPulumi));
    expect(pulumiSteps.length).toBeGreaterThan(0);
    for (const s of pulumiSteps) {
      expect(s.env).toMatchObject({
        PULUMI_ACCESS_TOKEN: "${{ secrets.PULUMI_ACCESS_TOKEN }}",
        PULUMI_BACKEND_URL: "${{ vars.PULUMI_BACKEND_URL }}",
        PULUMI_CONFIG_PASSPHRASE: "${{ secrets.PULUMI_CONFIG_PASSPHRASE }}",
      });
    }
  });

  test("secrets reach only the steps that run Pulumi, never npm ci", () => {
    for (const [, job] of jobs) {
      for (const s of job.steps) {
        const step = s.name ?? s.uses ?? s.run;
        const secret = JSON.stringify(s).includes("secrets.");
        expect({ step, secret }).toEqual({ step, secret: runsPulumi(s) });
      }
    }
  });

  test("a stack's organization is 'organization' unless PULUMI_ORG says (a self-managed backend's rule)", () => {
    const stacks = [
      w.env?.STACK,
      ...jobs.flatMap(([, j]) => j.steps.map((s) => s.with?.["stack-name"])),
    ];
    for (const stack of stacks.filter((s) => typeof s === "string" && !s.startsWith("${{ env."))) {
      expect(stack).toMatch(/^\$\{\{ vars\.PULUMI_ORG \|\| 'organization' \}\}\/hosting\//);
    }
  });
});

describe("the scheduled workflows", () => {
  test.each(["review-cleanup.yml", "drift.yml"])(
    "%s runs on a schedule and by hand, no other way",
    (file) => {
      const w = read(file);
      expect(Object.keys(w.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
      expect(w.on.schedule).toEqual([{ cron: expect.stringMatching(/^(\S+ ){4}\S+$/) }]);
    },
  );

  test("review-cleanup.yml may read pull requests, drift.yml may write issues; gh gets the job's token", () => {
    expect(read("review-cleanup.yml").permissions).toEqual({
      contents: "read",
      "pull-requests": "read",
    });
    expect(read("drift.yml").permissions).toEqual({ contents: "read", issues: "write" });
    for (const file of ["review-cleanup.yml", "drift.yml"]) {
      const steps = Object.values(read(file).jobs).flatMap((j) => j.steps);
      const script = steps.filter((s) => /\bgh\s/.test(s.run ?? ""));
      expect(script).toHaveLength(1);
      expect(script[0].shell).toBe("bash");
      expect(script[0].env).toMatchObject({
        GH_TOKEN: "${{ github.token }}",
        GH_REPO: "${{ github.repository }}",
      });
    }
  });

  test("the README names every workflow and the passphrase secret", () => {
    const readme = fs.readFileSync(path.join(GITOPS, "README.md"), "utf8");
    for (const file of files) expect(readme).toContain(`\`${file}\``);
    expect(readme).toContain("PULUMI_CONFIG_PASSPHRASE");
    expect(readme).toContain("PULUMI_BACKEND_URL");
    expect(readme).toContain(PULUMI_VERSION);
  });
});

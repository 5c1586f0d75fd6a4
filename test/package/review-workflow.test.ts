import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import type { Workflow, WorkflowJob } from "../helpers/workflow";

/*
 * examples/gitops/review.yml, a review environment per pull request, read and held to what its
 * README promises (no runner here). Its lifecycle against the service is for the real CLI.
 */

const ROOT = path.resolve(__dirname, "..", "..");

const w = parse(
  fs.readFileSync(path.join(ROOT, "examples", "gitops", "review.yml"), "utf8"),
) as Workflow;
const pulumiStep = (job: WorkflowJob) => {
  const found = job.steps.filter((s) => s.uses?.startsWith("pulumi/actions@"));
  expect(found).toHaveLength(1);
  return found[0];
};

test("runs on pull requests only: opened, reopened, pushed to, closed", () => {
  expect(Object.keys(w.on)).toEqual(["pull_request"]);
  expect(w.on.pull_request?.types).toEqual(["opened", "reopened", "synchronize", "closed"]);
});

test("one stack per pull request, pr-<number>, one run at a time per pull request, none cancelled", () => {
  expect(w.env?.STACK).toMatch(/\/pr-\$\{\{ github\.event\.pull_request\.number \}\}$/);
  expect(w.concurrency?.group).toContain("${{ github.event.pull_request.number }}");
  expect(w.concurrency?.["cancel-in-progress"]).toBe(false);
});

test("up on open and push (creating the stack), then the URL commented", () => {
  const up = w.jobs.up;
  expect(up.if).toContain("github.event.action != 'closed'");
  const p = pulumiStep(up);
  expect(p.with).toMatchObject({ command: "up", "stack-name": "${{ env.STACK }}", upsert: true });
  const comment = up.steps[up.steps.indexOf(p) + 1];
  expect(comment.uses).toMatch(/^actions\/github-script@/);
  expect(comment.env?.APP_URL).toBe(`\${{ steps.${p.id}.outputs.appUrl }}`);
  expect(up.permissions).toEqual({ contents: "read", "pull-requests": "write" });
});

test("on close: destroy, then remove the stack", () => {
  const down = w.jobs.down;
  expect(down.if).toContain("github.event.action == 'closed'");
  expect(pulumiStep(down).with).toMatchObject({ command: "destroy", remove: true });
});

test("forks are skipped, and secrets reach only the Pulumi steps, never npm ci", () => {
  for (const job of Object.values(w.jobs)) {
    expect(job.if).toContain("github.event.pull_request.head.repo.full_name == github.repository");
    for (const s of job.steps) {
      const secret = JSON.stringify(s).includes("secrets.");
      expect({ step: s.uses ?? s.run, secret }).toEqual({
        step: s.uses ?? s.run,
        secret: s.uses?.startsWith("pulumi/actions@") ?? false,
      });
    }
  }
});

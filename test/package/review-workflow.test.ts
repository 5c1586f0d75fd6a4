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

test("up on open and push (creating the stack), then a comment of what the stack reports", () => {
  const up = w.jobs.up;
  expect(up.if).toContain("github.event.action != 'closed'");
  const p = pulumiStep(up);
  expect(p.with).toMatchObject({ command: "up", "stack-name": "${{ env.STACK }}", upsert: true });
  // The comment's text comes from `pulumi stack output` (run in gitops-scripts.test.ts), not
  // from a URL the workflow or the program guesses.
  const body = up.steps[up.steps.indexOf(p) + 1];
  expect(body.run).toContain('pulumi stack output --json --stack "$STACK"');
  expect(body.run).not.toMatch(/https:\/\/\$\{?subdomain/);
  const comment = up.steps[up.steps.indexOf(p) + 2];
  expect(comment.uses).toMatch(/^actions\/github-script@/);
  expect(comment.env).toEqual({ BODY: `\${{ steps.${body.id}.outputs.body }}` });
  expect(up.permissions).toEqual({ contents: "read", "pull-requests": "write" });
});

test("on close: destroy, then remove the stack", () => {
  const down = w.jobs.down;
  expect(down.if).toContain("github.event.action == 'closed'");
  expect(pulumiStep(down).with).toMatchObject({ command: "destroy", remove: true });
});

test("forks are skipped (they get no secrets)", () => {
  for (const job of Object.values(w.jobs)) {
    expect(job.if).toContain("github.event.pull_request.head.repo.full_name == github.repository");
  }
});

/** The ```ts block of examples/gitops/README.md: the program the review stacks run. */
function readmeProgram(): string {
  const readme = fs.readFileSync(path.join(ROOT, "examples", "gitops", "README.md"), "utf8");
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  expect(blocks).toHaveLength(1);
  return blocks[0];
}

test("the README's program pins no subdomain, and is the one test/engine/fixtures/review runs", () => {
  const program = readmeProgram();
  expect(program).not.toMatch(/^\s*subdomain:/m);
  expect(program).toContain("export const subdomain = app.subdomain;");
  const fixture = fs.readFileSync(
    path.join(ROOT, "test", "engine", "fixtures", "review", "index.ts"),
    "utf8",
  );
  // The fixture's domain counts as pointed at the edge under the emulator; its first line says
  // where it comes from.
  const body = fixture.slice(fixture.indexOf("\n") + 1);
  expect(body.replace("www.shop.pointed.test", "www.example.com")).toBe(program);
});

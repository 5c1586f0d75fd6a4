/** The part of a GitHub Actions workflow file the workflow tests read (parsed from YAML). */
export interface WorkflowStep {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

/** What a push or pull_request trigger narrows to. */
export interface WorkflowTrigger {
  tags?: string[];
  branches?: string[];
  types?: string[];
}

export interface WorkflowJob {
  if?: string;
  environment?: string;
  "timeout-minutes"?: number;
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: WorkflowStep[];
  strategy?: { matrix?: Record<string, unknown[]> };
}

export interface Workflow {
  on: {
    push?: WorkflowTrigger | null;
    pull_request?: WorkflowTrigger | null;
    schedule?: Array<{ cron: string }>;
    workflow_dispatch?: Record<string, unknown> | null;
  };
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  env?: Record<string, string>;
  jobs: Record<string, WorkflowJob>;
}

/** The part of a GitHub Actions workflow file the workflow tests read (parsed from YAML). */
export interface WorkflowStep {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

export interface WorkflowJob {
  if?: string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: WorkflowStep[];
  strategy?: { matrix?: Record<string, unknown[]> };
}

export interface Workflow {
  on: Record<string, { tags?: string[]; branches?: string[]; types?: string[] } | null>;
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  env?: Record<string, string>;
  jobs: Record<string, WorkflowJob>;
}

export interface StoredResource {
  urn: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  type: string;
  secretKeys?: string[];
  dependencies?: string[];
  retainOnDelete?: boolean;
  deleteBeforeReplace?: boolean;
}
export interface StoredState {
  resources: StoredResource[];
  outputs: Record<string, unknown>;
  secretOutputs: string[];
}
/** The state with every secret value opened: what a `pulumi stack export --show-secrets` shows. */
export function loadState(stateFile: string): StoredState;
export function saveState(stateFile: string, state: StoredState): void;

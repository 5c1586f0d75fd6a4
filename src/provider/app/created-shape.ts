import type { AppSummary } from "../../api/wire";

/** The App inputs that decide what is created: what a replace-causing change changes. */
export interface CreatedShape {
  name: string;
  sourceHash?: string;
  env?: Record<string, string>;
  ram?: number;
  vcpu?: number;
  entrypoint?: string;
  subdomain?: string;
  description?: string;
  customCommand?: string;
  runtime?: { language: string; version: string };
}

/**
 * Whether an app of the list may have been made from this shape: its name, and every setting
 * the shape sets that the list shows (the create's fingerprint as far as the service tells it).
 */
export function mayBeMadeFrom(app: AppSummary, shape: CreatedShape): boolean {
  const set = <T>(mine: T | undefined, theirs: T | undefined) =>
    mine === undefined || mine === theirs;
  return (
    app.name === shape.name &&
    set(shape.subdomain, app.subdomain) &&
    set(shape.ram, app.ram) &&
    set(shape.vcpu, app.vcpu) &&
    set(shape.entrypoint, app.entrypoint) &&
    set(shape.description, app.description) &&
    set(shape.customCommand, app.custom_command)
  );
}

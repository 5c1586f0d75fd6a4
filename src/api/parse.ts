import type { z } from "zod";
import { HostingResponseError } from "./errors";
import { plainCheck } from "./plain-check";

/** Validates a response body, turning a mismatch into a readable HostingResponseError. */
export function parseBody<S extends z.ZodType>(
  operation: string,
  schema: S,
  body: unknown,
): z.infer<S> {
  if (plainCheck(schema)?.(body)) return body as z.infer<S>;
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new HostingResponseError(
    operation,
    formatPath(issue?.path ?? []),
    issue?.message ?? "invalid",
  );
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : out ? `.${String(key)}` : String(key);
  }
  return out;
}

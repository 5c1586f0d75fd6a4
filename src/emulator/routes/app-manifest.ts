import { manifestSchema, type Manifest } from "../manifest";
import { formatPath } from "../../api/wire";
import { EmulatorReplyError } from "../errors";

/** The app settings from the archive's manifest; a bad manifest is the caller's 422. */
export function readManifest(text: string | undefined): Manifest | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EmulatorReplyError(422, "hosting.json is not valid JSON");
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EmulatorReplyError(422, `hosting.json: ${formatPath(issue.path)}: ${issue.message}`);
  }
  return parsed.data;
}

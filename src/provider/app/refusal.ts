import { HostingApiError, makeApiError, type RefusedProperty } from "../../api/wire";
import { assertType, type Covers } from "../../base";
import type { Fields, WireKeys } from "../fields";
import { appFields } from "./fields";

// The client tells a refusal of every setting the App sends (the words for it, in one table).
assertType<
  Covers<
    Record<RefusedProperty, true>,
    Record<WireKeys<typeof appFields>, true>,
    "RefusedProperty and REFUSALS (src/api/refusals.ts)"
  >
>(true);

/*
 * A refusal of POST /apps names the App input to fix. The client reads which setting the
 * service's words are about (api/refusals.ts, the one table of those words); this maps that
 * setting to the App's input and says what to do in the provider's terms.
 */
const APP_INPUTS: Partial<Record<RefusedProperty, { input: string; hint?: string }>> = {
  // Each manifest setting by its declared wire key (appFields), so a new one is named too.
  ...Object.fromEntries(
    Object.entries(appFields as Fields)
      .filter(([, f]) => f.wire !== undefined)
      .map(([input, f]) => [f.wire, { input }]),
  ),
  runtime: {
    input: "runtime",
    hint:
      "set it to a runtime the service offers: getRuntimeVersions() lists them, and " +
      "pickRuntimeVersion() picks the recommended version of a language",
  },
  env: { input: "env" },
  archive: { input: "source" },
};

/** The App's error for a refusal whose words name a setting: it names the input instead. */
export function namingAppInput(err: unknown): unknown {
  if (!(err instanceof HostingApiError) || err.property === undefined) return err;
  const app = APP_INPUTS[err.property as RefusedProperty];
  if (!app) return err;
  const hint = app.hint ?? `check the App's \`${app.input}\` input`;
  const named = makeApiError("createApp", { ...err, property: app.input, hint });
  named.stack = `${named.name}: ${named.message}\n${err.stack?.split("\n").slice(1).join("\n") ?? ""}`;
  return named;
}

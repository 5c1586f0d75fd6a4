import {
  HostingApiError,
  isRefusalStatus,
  makeApiError,
  quotedSetting,
  type RefusedProperty,
} from "../../api/wire";
import type { Fields } from "../fields";
import { appFields } from "./fields";

/*
 * A refusal of POST /apps names the App input to fix. The client reads which setting the
 * service's words are about (api/refusals.ts, the one table of those words); this maps that
 * setting to the App's input and says what to do in the provider's terms. An input the client's
 * table has no words for is found by its declaration: its `refusalWords`, else its wire name.
 */

/** Each input sent under a `wire` key, with the words of a refusal about it. */
const DECLARED = Object.entries(appFields as Fields).flatMap(([input, f]) =>
  f.wire === undefined ? [] : [{ input, wire: f.wire, words: f.refusalWords ?? wordsOf(f.wire) }],
);

/** A wire name as a word of the service's text: `custom_command` or `custom command`. */
function wordsOf(wire: string): RegExp {
  return new RegExp(`\\b${wire.replace(/_/g, "[_ ]")}\\b`, "i");
}

const APP_INPUTS: Partial<Record<RefusedProperty, { input: string; hint?: string }>> = {
  // Each manifest setting by its declared wire key, so a new one is named too.
  ...Object.fromEntries(DECLARED.map((d) => [d.wire, { input: d.input }])),
  runtime: {
    input: "runtime",
    hint:
      "set it to a runtime the service offers: getRuntimeVersions() lists them, and " +
      "pickRuntimeVersion() picks the recommended version of a language",
  },
  env: { input: "env" },
  archive: { input: "source" },
};

/**
 * The input a refusal is about: the client's guess when the App maps it, else a declared input
 * the service quotes (`hosting.json: region: …`) or names in its words. So an input declared
 * with `wire` is named without a word in the client's table.
 */
function inputOf(err: HostingApiError): { input: string; hint?: string } | undefined {
  const guessed =
    err.property === undefined ? undefined : APP_INPUTS[err.property as RefusedProperty];
  if (guessed || !isRefusalStatus(err.status)) return guessed;
  const quoted = quotedSetting(err.bodyMessage);
  return (
    DECLARED.find((d) => d.wire === quoted) ?? DECLARED.find((d) => d.words.test(err.bodyMessage))
  );
}

/** The App's error for a refusal whose words name a setting: it names the input instead. */
export function namingAppInput(err: unknown): unknown {
  if (!(err instanceof HostingApiError)) return err;
  const app = inputOf(err);
  if (!app) return err;
  const hint = app.hint ?? `check the App's \`${app.input}\` input`;
  const named = makeApiError("createApp", { ...err, property: app.input, hint });
  named.stack = `${named.name}: ${named.message}\n${err.stack?.split("\n").slice(1).join("\n") ?? ""}`;
  return named;
}

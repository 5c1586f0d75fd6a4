import { checkApiUrl, looksLikeToken, tokenProblem } from "../api/wire";
import {
  ACCOUNT_NAME,
  ACCOUNT_NAME_RULE,
  accountLabel,
  readAccounts,
  showableName,
  type Accounts,
} from "./accounts";
import type { Environment } from "./environment";
import {
  envVarOf,
  howToSet,
  INSECURE_HTTP_FIX,
  placeOf,
  TOKEN_SOURCE,
  type ConnectionSetting,
  type SettingPlace,
} from "./hints";
import { misspeltKey, nearest, SETTINGS, unknownSettings } from "./settings";
import type { StackConfig } from "./stack-config";
import { readWireSettings, type WireSettings } from "./wire-limits";

/*
 * From stack config and environment to the URL and token of one connection (the default one or
 * a named account), checked as the client would check them but worded for a Pulumi user: each
 * problem names the config key or variable it came from and how to set it, and never quotes a
 * value that could be a token.
 */

/** Everything read once from the stack config and the environment. */
export interface StackSettings {
  config: StackConfig;
  env: Environment;
  accounts: Accounts;
  wire: WireSettings;
  /** Stack-wide problems (unknown keys, a malformed hosting:accounts, bad limits). */
  problems: string[];
  /** Problems of the wire settings, which every client uses. */
  wireProblems: string[];
  /** Misspelt keys by the key they are near, e.g. hosting:apiUrl → hosting:apiurl. */
  misspelt: ReadonlyMap<string, string>;
}

export function readStackSettings(config: StackConfig, env: Environment): StackSettings {
  const accounts = readAccounts(config.get("hosting:accounts"));
  const wire = readWireSettings(config, env);
  const misspelt = new Map<string, string>();
  const keys = config.sharedNamespace ? [] : config.keys;
  for (const k of keys) {
    if (!k.startsWith("hosting:") || Object.hasOwn(SETTINGS, k)) continue;
    const near = nearest(k, Object.keys(SETTINGS));
    if (near) misspelt.set(near, k);
  }
  return {
    config,
    env,
    accounts,
    wire: wire.settings,
    problems: [...unknownSettings(keys), ...accounts.problems, ...wire.problems],
    wireProblems: wire.problems,
    misspelt,
  };
}

export interface Resolved {
  apiUrl: string;
  token: string;
}

/** A value and where it came from. */
interface Found {
  value: unknown;
  place: SettingPlace;
  from: string;
}

/** Why a connection cannot be used; `repeats`: the stack-wide problems that say the same. */
export interface Unresolved {
  problem: string;
  repeats?: readonly string[];
}

/** The URL and token of the default connection or a named account, or why there is none. */
export function resolve(s: StackSettings, account?: string): Resolved | Unresolved {
  if (account !== undefined && !ACCOUNT_NAME.test(account)) {
    return { problem: `${ACCOUNT_NAME_RULE} (the name given is not shown).` };
  }
  const named = account === undefined ? undefined : { name: account, shown: showableName(account) };
  if (account !== undefined) {
    const { unusable } = s.accounts;
    if (unusable) return { problem: unusable, repeats: [unusable] };
    const broken = s.accounts.broken.get(account);
    if (broken) {
      const problem = `${accountLabel(account)} cannot be used: ${broken.why}.`;
      return { problem, repeats: broken.problems };
    }
  }
  const entry = account === undefined ? undefined : (s.accounts.entries.get(account) ?? {});
  /** A setting of `name` (undefined: the default connection): config first, then environment. */
  const find = (setting: ConnectionSetting, name?: string): Found | undefined => {
    const place = placeOf(setting, name === undefined ? undefined : named);
    const fromConfig = name === undefined ? s.config.get(`hosting:${setting}`) : entry?.[setting];
    if (fromConfig !== undefined) return { value: fromConfig, place, from: place.key };
    const fromEnv = s.env[envVarOf(setting, name)];
    if (fromEnv === undefined || fromEnv.trim() === "") return undefined;
    return { value: fromEnv, place, from: place.env };
  };
  // A named account without its own URL uses the default one; never the default token.
  const apiUrl = find("apiUrl", account) ?? (account === undefined ? undefined : find("apiUrl"));
  return check(s, account, apiUrl, find("token", account));
}

function check(
  s: StackSettings,
  account: string | undefined,
  apiUrl: Found | undefined,
  token: Found | undefined,
): Resolved | Unresolved {
  const who = account === undefined ? undefined : accountLabel(account);
  const named = account === undefined ? undefined : { name: account, shown: showableName(account) };
  const unset = [
    ...(apiUrl ? [] : [missing(s, "apiUrl", who, placeOf("apiUrl", named), account)]),
    ...(token ? [] : [missing(s, "token", who, placeOf("token", named), account)]),
  ];
  if (!apiUrl || !token) {
    // A setting missing because its key is misspelt is said once, as the misspelling.
    const repeats = unset.filter((p) => s.problems.includes(p));
    return { problem: unset.join(" "), ...(repeats.length > 0 ? { repeats } : {}) };
  }
  const urlText = typeof apiUrl.value === "string" ? apiUrl.value.trim() : "";
  const tokenText = typeof token.value === "string" ? token.value.trim() : "";
  if (looksLikeToken(urlText) && /^https?:\/\//i.test(tokenText)) {
    return {
      problem:
        `${apiUrl.from} holds what looks like an API token and ${token.from} what looks like a ` +
        `URL: they are swapped. Put the URL in ${apiUrl.place.key} and the token in ` +
        `${token.place.key} (with --secret).`,
    };
  }
  const bad = tokenProblem(token.value);
  if (bad) {
    return {
      problem: `${token.from} ${bad}; ${TOKEN_SOURCE} and ${howToSet("token", token.place)}.`,
    };
  }
  const url = checkApiUrl(apiUrl.value, s.wire.allowInsecureHttp);
  if (!url.url) {
    const fix = url.insecure ? INSECURE_HTTP_FIX : howToSet("apiUrl", apiUrl.place);
    return { problem: `${apiUrl.from} ${url.problem}; ${fix}.` };
  }
  return { apiUrl: url.url.toString(), token: tokenText };
}

function missing(
  s: StackSettings,
  setting: ConnectionSetting,
  who: string | undefined,
  place: SettingPlace,
  account: string | undefined,
): string {
  if (who) {
    const what = setting === "token" ? "no token" : "no API URL";
    const known = [...s.accounts.entries.keys(), ...s.accounts.broken.keys()].sort();
    const list =
      known.length > 0 && account !== undefined && showableName(account)
        ? ` (accounts in hosting:accounts: ${known.filter(showableName).join(", ")})`
        : "";
    const orDefault = setting === "apiUrl" ? ", or set the default hosting:apiUrl" : "";
    return `${who} has ${what}: ${howToSet(setting, place)}${orDefault}${list}.`;
  }
  const typo = s.misspelt.get(place.key);
  if (typo) return misspeltKey(typo, place.key);
  return `${place.key} is not set: ${howToSet(setting, place)}.`;
}

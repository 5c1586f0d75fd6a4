import { ACCOUNTS_FIX } from "./hints";
import { ACCOUNT_SETTINGS, nearest, safeKeyName } from "./settings";

/*
 * Named accounts: `account: "shared"` on a resource or data source picks the connection in
 * `hosting:accounts.shared.{apiUrl,token}` (stack config) or `HOSTING_SHARED_{API_URL,TOKEN}`
 * (environment). Only the name is an input, so only the name is ever in state.
 */

export const ACCOUNT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/;

export const ACCOUNT_NAME_RULE =
  "account must be 1-63 letters, digits, '-' or '_', starting with a letter (e.g. \"shared\"): " +
  "the name of a connection in hosting:accounts";

/**
 * Whether an account name may appear in a message: a valid name without a long random-looking
 * run (a token pasted as the name must not come back in an error).
 */
export function showableName(name: unknown): name is string {
  return typeof name === "string" && ACCOUNT_NAME.test(name) && !tokenLike(name);
}

/** Whether a value holds a long run of letters mixed with digits, as tokens and keys do. */
export function tokenLike(value: string): boolean {
  return value
    .split(/[^A-Za-z0-9]/)
    .some((run) => run.length >= 16 && /\d/.test(run) && /\D/.test(run));
}

/** How a message names an account: quoted when showable, else without the name. */
export function accountLabel(name: string): string {
  return showableName(name) ? `account "${name}"` : "the account (name not shown)";
}

export interface AccountEntry {
  apiUrl?: string;
  token?: string;
}

export interface Accounts {
  /** Usable entries by name. */
  entries: ReadonlyMap<string, AccountEntry>;
  /**
   * Entries that are there but unusable: why (for the account's error), and the entries of
   * `problems` that say the same, so a check reports them once.
   */
  broken: ReadonlyMap<string, { why: string; problems: readonly string[] }>;
  /** Everything wrong with `hosting:accounts`, for check. */
  problems: string[];
  /** Set when `hosting:accounts` as a whole is unusable: every named account fails with it. */
  unusable?: string;
}

const EMPTY: Accounts = { entries: new Map(), broken: new Map(), problems: [] };

const kindOf = (v: unknown) =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "a list"
      : typeof v === "object"
        ? "an object"
        : typeof v;

/** `hosting:accounts`: an object (or its JSON text) of named entries, each checked. */
export function readAccounts(raw: unknown): Accounts {
  if (raw === undefined) return EMPTY;
  let parsed: unknown = raw;
  if (typeof raw === "string") {
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    const problem = `hosting:accounts must be an object of named accounts, not ${typeof raw === "string" ? "text" : kindOf(parsed)}; ${ACCOUNTS_FIX}.`;
    return { entries: new Map(), broken: new Map(), problems: [problem], unusable: problem };
  }
  const entries = new Map<string, AccountEntry>();
  const broken = new Map<string, { why: string; problems: string[] }>();
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(parsed as Record<string, unknown>)) {
    const key = showableName(name) ? `hosting:accounts.${name}` : undefined;
    if (!key) {
      problems.push(
        `hosting:accounts has an entry whose name is not a valid account name (not shown): ${ACCOUNT_NAME_RULE}.`,
      );
      continue;
    }
    const why = entryProblems(key, entry);
    if (why.length > 0) {
      const own = why.map((w) => `${w}.`);
      broken.set(name, { why: why.join("; "), problems: own });
      problems.push(...own);
      continue;
    }
    const e = entry as Record<string, unknown>;
    entries.set(name, {
      apiUrl: typeof e.apiUrl === "string" && e.apiUrl.trim() ? e.apiUrl : undefined,
      token: typeof e.token === "string" && e.token.trim() ? e.token : undefined,
    });
  }
  return { entries, broken, problems };
}

/** What is wrong with one entry: not an object, a setting that is not text, an unknown key. */
function entryProblems(key: string, entry: unknown): string[] {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    return [
      `${key} must be an object with apiUrl and token, not ${kindOf(entry)}; ${ACCOUNTS_FIX}`,
    ];
  }
  const out: string[] = [];
  for (const [k, v] of Object.entries(entry)) {
    if ((ACCOUNT_SETTINGS as readonly string[]).includes(k)) {
      if (v !== undefined && v !== null && typeof v !== "string") {
        out.push(`${key}.${k} must be text, not ${kindOf(v)}`);
      }
      continue;
    }
    const near = nearest(k, ACCOUNT_SETTINGS);
    const shown = safeKeyName(`${key}.${k}`);
    out.push(
      near
        ? `${shown} is not an account setting: did you mean ${key}.${near}?`
        : `${shown} is not an account setting; an account has only apiUrl and token`,
    );
  }
  return out;
}

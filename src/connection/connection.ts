import { type HostingClient, HostingConfigError } from "../api/wire";
import type { Environment } from "./environment";
import type { ClientPool } from "./pool";
import {
  readStackSettings,
  resolve,
  type Resolved,
  type StackSettings,
  type Unresolved,
} from "./resolve";
import type { StackConfig } from "./stack-config";
import { ownerOf, type Owner } from "./owner";

/**
 * The connections of one stack: built from its config and the environment (by the provider's
 * configure, or by the program for data sources) and handed to whatever calls the API. Each
 * account is resolved once; clients come from the shared pool.
 */
export class Connection {
  readonly #settings: StackSettings;
  readonly #pool: ClientPool;
  readonly #resolved = new Map<string | undefined, Resolved | Unresolved>();

  constructor(config: StackConfig, env: Environment, pool: ClientPool) {
    this.#settings = readStackSettings(config, env);
    this.#pool = pool;
  }

  /** Mistakes in the stack's `hosting:*` config as a whole (unknown keys, bad values). */
  get problems(): readonly string[] {
    return this.#settings.problems;
  }

  #resolve(account: string | undefined) {
    let r = this.#resolved.get(account);
    if (!r) {
      r = resolve(this.#settings, account);
      this.#resolved.set(account, r);
    }
    return r;
  }

  /** Why the default connection (no account) or a named account cannot be used, if it cannot. */
  problemOf(account?: string): string | undefined {
    const r = this.#resolve(account);
    return "problem" in r ? r.problem : undefined;
  }

  /** The stack-wide problems, less those the account's own problem already says. */
  problemsBesides(account?: string): readonly string[] {
    const r = this.#resolve(account);
    const said = "problem" in r ? (r.repeats ?? []) : [];
    return this.problems.filter((p) => !said.includes(p));
  }

  /**
   * The client of the default connection or a named account. Throws a HostingConfigError when
   * it is not configured, or when the stack's wire settings are wrong.
   */
  client(account?: string): HostingClient {
    const r = this.#resolve(account);
    if ("problem" in r) throw new HostingConfigError(r.problem);
    // The limits apply to every client: a wrong one stops them all.
    const [wireProblem] = this.#settings.wireProblems;
    if (wireProblem) throw new HostingConfigError(wireProblem);
    return this.#pool.get(r, this.#settings.wire);
  }

  /** The named accounts of `hosting:accounts` that can be used, in name order. */
  accountNames(): string[] {
    return [...this.#settings.accounts.entries.keys()].sort();
  }

  /** Who the default connection or a named account acts for; undefined when not configured. */
  owner(account?: string): Owner | undefined {
    const r = this.#resolve(account);
    return "problem" in r ? undefined : ownerOf(r.apiUrl, r.token);
  }

  /** Whether two accounts (undefined: the default) are one account (see owner.ts). */
  sameAccount(a: string | undefined, b: string | undefined): boolean {
    const x = this.owner(a);
    const y = this.owner(b);
    return x !== undefined && y !== undefined && x.account === y.account;
  }

  /**
   * A configured connection that acts for `owner`: the default one, else a named account of
   * `hosting:accounts` (in name order). `null` when none does.
   */
  accountActingFor(owner: Owner): { account: string | undefined } | null {
    for (const account of [undefined, ...this.accountNames()]) {
      if (this.owner(account)?.account === owner.account) return { account };
    }
    return null;
  }
}

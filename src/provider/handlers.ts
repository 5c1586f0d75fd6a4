import type * as pulumi from "@pulumi/pulumi";
import {
  backupDeletionHandler,
  databaseSetupRetryHandler,
  vmStartHandler,
} from "./actions/handler";
import { analyticsHandler } from "./analytics/handler";
import { appHandler } from "./app/handler";
import {
  ACCOUNT_NAME_RULE,
  tokenLike,
  Connection,
  readEnvironment,
  ClientPool,
  SETTINGS,
  stackConfig,
  type StackConfig,
  reportRetryWait,
} from "../connection";
import type { ResourceKind } from "./resource-kind";
import { customDomainHandler } from "./custom-domain/handler";
import {
  checkWith,
  diffWith,
  inputsFrom,
  updatedOutputs,
  type Naming,
  type Props,
  type ResourceHandler,
} from "./resource-handler";
import { ResourceInitError } from "./errors";
import { sameValue } from "./stable-json";
import { UNKNOWN, type Failure } from "../inputs";
import { NAMING_INPUT, URN_INPUT } from "./urn-input";
import { webAccessHandler } from "./web-access/handler";
import { withProviderHints } from "./provider-hints";
import { otherAccountError, ownerMoved, ownerNow, reach, withOwner } from "./ownership";

/*
 * The code behind every dynamic resource. It runs inside Pulumi's provider host, loaded at call
 * time by the `__provider` text (provider-text.ts), so it is never written into state: fixes
 * here reach existing stacks, and nothing here (least of all the token) is in `__provider`.
 */

const table = {
  App: appHandler,
  CustomDomain: customDomainHandler,
  AppWebAccess: webAccessHandler,
  AppAnalytics: analyticsHandler,
  VmStart: vmStartHandler,
  DatabaseSetupRetry: databaseSetupRetryHandler,
  BackupDeletion: backupDeletionHandler,
} satisfies Record<ResourceKind, ResourceHandler>;

export type { ResourceKind };

/** One pool for the process: every resource type shares keep-alive and the limiter. */
const pool = new ClientPool(reportRetryWait);

/**
 * @internal Closes the pool's keep-alive connections, as the host's exit does. For tests that
 * run many providers in one process: an open socket keeps the emulator's stop waiting.
 */
export function closeProviderClients(): Promise<void> {
  return pool.close();
}

const withAccount = (inputs: Props, account: unknown): Props =>
  account === undefined ? inputs : { ...inputs, account };

const accountOf = (props: Props) => (typeof props.account === "string" ? props.account : undefined);

/**
 * What stops a resource from reaching the service, as check failures (so a preview fails, not
 * only `up`): the stack's `hosting:*` mistakes and the connection of the resource's account.
 * A failure names `account` unless its value looks like a token: the engine prints the value
 * of the property a failure names, and a token pasted as the name must not be printed.
 */
function connectionFailures(conn: Connection, account: unknown): Failure[] {
  const stack = (besides?: string) =>
    conn.problemsBesides(besides).map((reason) => ({ property: "", reason }));
  if (account === UNKNOWN) return stack();
  if (account !== undefined && typeof account !== "string") {
    return [{ property: "account", reason: ACCOUNT_NAME_RULE }, ...stack()];
  }
  const problem = conn.problemOf(account);
  if (problem === undefined) return stack();
  // A malformed name is named too (the engine prints it); only a token-like value is not.
  const property = account !== undefined && !tokenLike(account) ? "account" : "";
  return [{ property, reason: problem }, ...stack(account)];
}

/**
 * Whether the object moves to another account (a replace: created with the new account, deleted
 * with the old one). Recorded under one account and reached under another (another token in
 * `hosting:token`, another provider, another `account`) is a move; a rename of `account` to one
 * that acts for the same account, or a rotated token, is not: it is recorded in place. A state of
 * an earlier release records no owner: then only a change of `account` to another account moves.
 */
function accountMoved(conn: Connection, olds: Props, news: Props): boolean {
  if (news.account === UNKNOWN) return olds.account !== news.account;
  if (ownerMoved(conn, olds, news)) return true;
  if (olds.account === news.account) return false;
  return !conn.sameAccount(accountOf(olds), accountOf(news));
}

/**
 * The stack config the engine handed over. Pulumi's host passes a Config whose `get` reads a
 * plain map (`rawConfig`): all of it is needed to spot misspelt `hosting:*` keys. Without it
 * (another host), the known keys are read one by one.
 */
function engineConfig(req: pulumi.dynamic.ConfigureRequest) {
  const host = req.config as unknown as { rawConfig?: unknown; projectName?: string };
  const raw = host.rawConfig;
  if (raw !== null && typeof raw === "object") {
    return stackConfig(raw as Record<string, unknown>, host.projectName);
  }
  const known = Object.keys(SETTINGS).map((k) => [k, req.config.get(k)] as const);
  return stackConfig(Object.fromEntries(known.filter(([, v]) => v !== undefined)));
}

type Methods = ReturnType<typeof methodsFor>;
const methods = new Map<ResourceKind, Methods>();

/** @internal The dynamic-provider methods for one resource type (made once per kind). */
export function providerHandlers(kind: ResourceKind): Methods {
  let m = methods.get(kind);
  if (!m) {
    m = withProviderHints(methodsFor(table[kind], { conn: connectionOf(stackConfig({})) }));
    methods.set(kind, m);
  }
  return m;
}

/** Where a kind's methods find their connection; configure replaces it. */
export interface HeldConnection {
  conn: Connection;
}

/** A connection from stack config and the environment, on the process's shared pool. */
export function connectionOf(config: StackConfig): Connection {
  return new Connection(config, readEnvironment(), pool);
}

/**
 * @internal The same methods for the native plugin, whose provider holds one connection for
 * every kind (its own config: the stack's, or an explicit provider's arguments).
 */
export function nativeHandlers(kind: ResourceKind, held: HeldConnection): Methods {
  return withProviderHints(methodsFor(table[kind], held));
}

function methodsFor(h: ResourceHandler, held: HeldConnection) {
  // Built by configure (the host calls it first); the environment alone until then.
  const client = (props: Props) => held.conn.client(accountOf(props));
  return {
    async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
      held.conn = connectionOf(engineConfig(req));
    },
    async check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
      // `account` is common to every resource: checked here, not by each resource's schema.
      const { account, [URN_INPUT]: urn, [NAMING_INPUT]: proposed, ...rest } = news;
      const result = await checkWith(h, olds, rest, {
        urn: typeof urn === "string" ? urn : undefined,
        proposed: proposed as Naming["proposed"],
      });
      const inputs =
        typeof urn === "string" ? { ...result.inputs, [URN_INPUT]: urn } : result.inputs;
      return {
        inputs: withAccount(inputs, account),
        failures: [...connectionFailures(held.conn, account), ...result.failures],
      };
    },
    async diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
      const moved = accountMoved(held.conn, olds, news);
      const plain = diffWith(h, olds, news);
      // A move replaces even when `account` itself is unchanged (the token behind it changed).
      const result = !moved
        ? plain
        : {
            changes: true,
            replaces: [...new Set([...plain.replaces, "account"])].sort(),
            deleteBeforeReplace: h.deleteBeforeReplace?.(news) ?? false,
          };
      h.diffed?.(id, olds, result.replaces);
      return result;
    },
    async create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
      const c = client(inputs);
      const owner = ownerNow(held.conn, inputs);
      try {
        const made = await h.create(c, inputs);
        return { id: made.id, outs: withOwner(made.outs, {}, owner) };
      } catch (err) {
        // Pulumi stores these properties as the resource's state; later operations (a delete)
        // need the `__provider` text and the owner in them like in any other state.
        if (err instanceof ResourceInitError) {
          Object.assign(err.properties, withOwner({}, {}, owner), {
            __provider: inputs.__provider,
          });
        }
        throw err;
      }
    },
    async read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
      const state = props ?? {};
      const r = reach(held.conn, state);
      const found = await h.read(r.client, id, state);
      if (!found) {
        // Not found under another account than the one it was made under is not "gone".
        if (r.foreign) throw otherAccountError(id, state, r.foreign);
        return {}; // No id tells Pulumi the object is gone: a refresh drops it.
      }
      const inputs = withAccount(found.inputs, state.account);
      // The owner recorded, if any. A state of an earlier release learns it with its next update,
      // never here: a refresh that added it would show every resource as changed after upgrade.
      const outs = withOwner(found.props, state, undefined);
      // Inputs go back only when the refresh changed them (drift): without them the engine keeps
      // the inputs it holds, and each of the N answers of a refresh is half the size.
      const unchanged = sameValue(inputs, withAccount(inputsFrom(h.schema, state), state.account));
      return unchanged ? { id, props: outs } : { id, props: outs, inputs };
    },
    async update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
      const outs = h.update
        ? await h.update(reach(held.conn, olds).client, id, olds, news)
        : updatedOutputs(h, olds, news);
      return { outs: withOwner(outs, olds, ownerNow(held.conn, news)) };
    },
    async delete(id: string, props: Props): Promise<void> {
      const r = reach(held.conn, props);
      const gone = await h.delete(r.client, id, props);
      if (gone === "gone" && r.foreign) throw otherAccountError(id, props, r.foreign);
    },
  };
}

import type * as pulumi from "@pulumi/pulumi";
import type { HostingClient } from "../api/client";
import {
  backupDeletionHandler,
  databaseSetupRetryHandler,
  vmStartHandler,
} from "./actions/handler";
import { analyticsHandler } from "./analytics/handler";
import { appHandler } from "./app/handler";
import { ACCOUNT_NAME_RULE } from "./accounts";
import { clientFor, resolveConnection, type ConfigSource } from "./config";
import type { ResourceKind } from "./resource-kind";
import { customDomainHandler } from "./custom-domain/handler";
import {
  checkWith,
  diffWith,
  inputsFrom,
  ResourceInitError,
  updatedOutputs,
  type Props,
  type ResourceHandler,
} from "./resource-handler";
import { sameValue } from "./stable-json";
import { UNKNOWN, type Failure } from "./validate";
import { webAccessHandler } from "./web-access/handler";
import { withProviderHints } from "./errors/provider-hints";

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

/** Stack config handed over by the engine in configure(); env vars are the fallback. */
let stackConfig: ConfigSource | undefined;

/** Clients by account, resolved once per configure: every read of a refresh asks again. */
const clients = new Map<string | undefined, HostingClient>();

/** The client of the resource's account (an input, so read from inputs or from state). */
function client(props: Props): HostingClient {
  const account = accountOf(props);
  let c = clients.get(account);
  if (!c) {
    c = clientFor(resolveConnection(stackConfig, account));
    clients.set(account, c);
  }
  return c;
}

const withAccount = (inputs: Props, account: unknown): Props =>
  account === undefined ? inputs : { ...inputs, account };

const accountOf = (props: Props) => (typeof props.account === "string" ? props.account : undefined);

/** A problem with a resource's `account` input, as a check failure. */
function accountFailure(account: unknown): Failure | undefined {
  if (account === undefined || account === UNKNOWN) return undefined;
  if (typeof account !== "string") return { property: "account", reason: ACCOUNT_NAME_RULE };
  try {
    resolveConnection(stackConfig, account);
    return undefined;
  } catch (err) {
    return { property: "account", reason: (err as Error).message };
  }
}

/**
 * Whether a change of `account` moves the object to other credentials (a replace: created with
 * the new account, deleted with the old one). A rename to an account with the same URL and
 * token is not a move: it is recorded in place.
 */
function accountMoved(olds: Props, news: Props): boolean {
  if (olds.account === news.account) return false;
  if (news.account === UNKNOWN) return true;
  try {
    const a = resolveConnection(stackConfig, accountOf(olds));
    const b = resolveConnection(stackConfig, accountOf(news));
    return a.apiUrl !== b.apiUrl || a.token !== b.token;
  } catch {
    return true;
  }
}

/**
 * The host unwraps only top-level secrets; a secret leaf inside an object (`--secret --path
 * hosting:accounts.x.token`) may still be in Pulumi's wire wrapper: take its value.
 */
function unwrapSecret(_key: string, v: unknown): unknown {
  const o = v as Record<string, unknown> | null;
  const wrapped = o !== null && typeof o === "object" && o[SIG_KEY] === SECRET_SIG && "value" in o;
  return wrapped ? o.value : v;
}
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type Methods = ReturnType<typeof methodsFor>;
const methods = new Map<ResourceKind, Methods>();

/** @internal The dynamic-provider methods for one resource type (made once per kind). */
export function providerHandlers(kind: ResourceKind): Methods {
  let m = methods.get(kind);
  if (!m) {
    m = withProviderHints(methodsFor(table[kind]));
    methods.set(kind, m);
  }
  return m;
}

function methodsFor(h: ResourceHandler) {
  return {
    async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
      clients.clear();
      stackConfig = (key) => {
        const v: unknown = req.config.get(key);
        // Structured values (hosting:accounts) may arrive as objects or as JSON text.
        if (v !== null && typeof v === "object") return JSON.stringify(v, unwrapSecret);
        return typeof v === "string" && v.length > 0 ? v : undefined;
      };
    },
    async check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
      // `account` is common to every resource: checked here, not by each resource's schema.
      const { account, ...rest } = news;
      const result = await checkWith(h, olds, rest);
      const bad = accountFailure(account);
      return {
        inputs: withAccount(result.inputs, account),
        failures: bad ? [bad, ...result.failures] : result.failures,
      };
    },
    async diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
      const moved = accountMoved(olds, news);
      const result = diffWith(
        moved ? { ...h, replaceOnChange: [...h.replaceOnChange, "account"] } : h,
        olds,
        news,
      );
      h.diffed?.(id, olds, result.replaces);
      return result;
    },
    async create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
      try {
        return await h.create(client(inputs), inputs);
      } catch (err) {
        // Pulumi stores these properties as the resource's state; later operations (a delete)
        // need the `__provider` text in them like in any other state.
        if (err instanceof ResourceInitError) err.properties.__provider = inputs.__provider;
        throw err;
      }
    },
    async read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
      const state = props ?? {};
      const found = await h.read(client(state), id, state);
      if (!found) return {}; // No id tells Pulumi the object is gone: a refresh drops it.
      const inputs = withAccount(found.inputs, state.account);
      // Inputs go back only when the refresh changed them (drift): without them the engine keeps
      // the inputs it holds, and each of the N answers of a refresh is half the size.
      const unchanged = sameValue(inputs, withAccount(inputsFrom(h.schema, state), state.account));
      return unchanged ? { id, props: found.props } : { id, props: found.props, inputs };
    },
    async update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
      return {
        outs: h.update
          ? await h.update(client(news), id, olds, news)
          : updatedOutputs(h, olds, news),
      };
    },
    async delete(id: string, props: Props): Promise<void> {
      await h.delete(client(props), id, props);
    },
  };
}

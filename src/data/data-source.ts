/* eslint-disable @typescript-eslint/no-require-imports */
import * as pulumi from "@pulumi/pulumi";
import { HostingInputError } from "../api/wire";
import { lazyFunction, once } from "../base";
import type { Calls } from "./calls";

/*
 * The public data-source and action functions, made from the table in calls.ts. What they do
 * (argument schemas in zod, the client and its undici) loads on the first call, so a program
 * that only declares resources does not pay for it.
 */

const calls = once(() => (require("./calls") as typeof import("./calls")).calls);

type Name = keyof Calls;
type Result<K extends Name> = Awaited<ReturnType<Calls[K]>>;

/** `fn` named `name`, as a function declaration would be. */
function named<F extends object>(name: string, fn: F): F {
  return Object.defineProperty(fn, "name", { value: name });
}

/**
 * Data source `name`: refuses invoke options that would do nothing, then runs. `defaultArgs`
 * stands for arguments left out, for the data sources whose arguments are all optional.
 */
export function dataSource<K extends Name>(name: K, defaultArgs?: object) {
  const run = lazyFunction(calls, name) as (args: unknown) => Promise<Result<K>>;
  return named(name, async (args?: unknown, opts?: pulumi.InvokeOptions): Promise<Result<K>> => {
    checkInvokeOptions(name, opts);
    return run(args === undefined ? defaultArgs : args);
  });
}

/** The Output form of data source `fn`: Input arguments, and `dependsOn` waited for. */
export function outputOf<R>(fn: (args: never, opts?: pulumi.InvokeOptions) => Promise<R>) {
  return named(
    `${fn.name}Output`,
    (args?: object, opts?: pulumi.InvokeOutputOptions): pulumi.Output<R> =>
      invokeOutput(fn, args, opts),
  );
}

/** Action `name` (no invoke options: these are for scripts). */
export function action<K extends Name>(name: K) {
  const run = lazyFunction(calls, name) as (args: unknown) => Promise<Result<K>>;
  return named(name, async (args: unknown): Promise<Result<K>> => run(args));
}

/*
 * Dynamic providers have no invokes, so the data sources are plain functions in the program.
 * They take Pulumi's invoke options anyway, so calls read like any provider's, and honour the
 * ones that mean something here.
 */

/** Refuses an option that would silently not do what the caller means. */
function checkInvokeOptions(fn: string, opts: pulumi.InvokeOptions | undefined): void {
  if (opts?.provider !== undefined) {
    throw new HostingInputError(
      "provider",
      `${fn}: opts.provider has no effect: pulumi-hosting's data sources call the API from ` +
        `the program; the connection comes from hosting:apiUrl and hosting:token ` +
        `(stack config, or HOSTING_API_URL and HOSTING_TOKEN), or from a named account given ` +
        `as the account argument. Remove the provider option.`,
    );
  }
}

/**
 * The Output form of a data source: resolves Input arguments, waits for `opts.dependsOn`, and,
 * like Pulumi's own output invokes, stays unknown (does not call the API) while an argument or
 * a dependency's id is unknown, e.g. during a preview that creates it.
 */
function invokeOutput<A, R>(
  fn: (args: A, opts?: pulumi.InvokeOptions) => Promise<R>,
  args: object | undefined,
  opts: pulumi.InvokeOutputOptions = {},
): pulumi.Output<R> {
  // Now, not once the arguments are known: with unknown ones a preview would never say it.
  checkInvokeOptions(`${fn.name}Output`, opts);
  const { dependsOn, ...invokeOpts } = opts;
  return pulumi
    .all([pulumi.output(args ?? {}), dependencyIds(dependsOn)])
    .apply(([a]) => fn(a as A, invokeOpts));
}

/** The ids (custom resources) or URNs (components) of `dependsOn`, known once they exist. */
function dependencyIds(dependsOn: pulumi.InvokeOutputOptions["dependsOn"]): pulumi.Output<unknown> {
  return pulumi
    .output(dependsOn ?? [])
    .apply((deps) =>
      pulumi.all([deps].flat().map((r) => (pulumi.CustomResource.isInstance(r) ? r.id : r.urn))),
    );
}

/* eslint-disable @typescript-eslint/no-require-imports */
import type * as pulumi from "@pulumi/pulumi";
import { lazyFunction, once } from "../base";
import type { Calls } from "./calls";
import { checkInvokeOptions, invokeOutput } from "./invoke";

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

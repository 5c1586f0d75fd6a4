import { withProviderHint } from "../connection";

/*
 * The client speaks no Pulumi: its errors name its own options. The provider's say which stack
 * setting to fix (connection/error-hints.ts), for the account of the resource at hand.
 */

/** The account a method's call uses: the `account` of its last argument (inputs or state). */
function accountOfCall(args: readonly unknown[]): string | undefined {
  const last = args[args.length - 1] as { account?: unknown } | null | undefined;
  return typeof last?.account === "string" ? last.account : undefined;
}

/** The same methods, each putting the provider's advice in what it throws. */
export function withProviderHints<M extends Record<string, (...args: never[]) => Promise<unknown>>>(
  methods: M,
): M {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) {
    out[name] = (...args: never[]) =>
      fn(...args).catch((err: unknown) =>
        Promise.reject(withProviderHint(err, accountOfCall(args))),
      );
  }
  return out as M;
}

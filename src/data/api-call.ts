import * as pulumi from "@pulumi/pulumi";
import type { HostingClient } from "../api/wire";
import { withProviderHint, programClient } from "../connection";
import { underMocks } from "../shared";

/*
 * Where a data source or action function gets its answer. In a real run: from the API, with the
 * client of the call's account. Under `pulumi.runtime.setMocks` (a user's unit tests): from the
 * mocks' `call`, with the token `hosting:index:<function>` and the arguments as written (checked,
 * camelCase), so a program can be tested without a service or any `hosting:*` config. Dynamic
 * providers have no invokes, so only mocks ever see these tokens.
 */

/** The token mocks see for a function, e.g. `hosting:index:getDatabases`. */
export const mockToken = (fn: string) => `hosting:index:${fn}`;

/**
 * A list as a mock returned it: invoke results travel as a protobuf Struct, which turns an array
 * into an object keyed "0", "1", … (and an empty one into {}).
 */
export function mockedList<T>(result: T[]): T[] {
  if (Array.isArray(result)) return result;
  const o = (result ?? {}) as Record<string, T>;
  return Object.keys(o)
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => o[k]);
}

/**
 * The answer of `fn` for checked `args`: `run` with the account's client, or under mocks what
 * the mocks' `call` returns, passed through `fromMock` (e.g. to make a field a secret Output).
 */
export async function apiCall<A extends { account?: string }, R>(
  fn: string,
  args: A,
  run: (client: HostingClient) => Promise<R>,
  fromMock: (result: R) => R = (r) => r,
): Promise<R> {
  if (!underMocks()) {
    // The stack's settings, not the client's options, are what a program's author can fix.
    return run(programClient(args.account)).catch((err: unknown) =>
      Promise.reject(withProviderHint(err, args.account)),
    );
  }
  const result = (await pulumi.runtime.invoke(mockToken(fn), args as pulumi.Inputs)) as R;
  return fromMock(result);
}

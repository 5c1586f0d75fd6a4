import type { FastifyRequest } from "fastify";
import { endpoints, type EndpointName } from "../api/wire";
import { boundedMemo } from "../base";
import type { ResolvedOptions } from "./options";
import type { Rng } from "./rng";
import type { Store } from "./store";
import type { UserRecord, World } from "./world";
import { EmulatorReplyError } from "./errors";

export interface Emu {
  store: Store;
  world: World;
  opts: ResolvedOptions;
  rng: Rng;
  /** Base URL the server answers on, once listening. */
  baseUrl: () => string;
}

export interface Call {
  req: FastifyRequest;
  user: UserRecord;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: unknown;
}

export type Handler = (emu: Emu, call: Call) => Promise<unknown> | unknown;

/** The other-user-safe lookup: someone else's object answers 404 exactly like a missing one. */
export function owned<T extends { id: string; user_id: string }>(
  list: T[],
  id: string,
  user: UserRecord,
  what: string,
): T {
  const found = list.find((x) => x.id === id && x.user_id === user.id);
  if (!found) throw new EmulatorReplyError(404, `${what} ${id} not found`);
  return found;
}

type WithQuery = {
  [K in EndpointName]: (typeof endpoints)[K] extends { query: object } ? K : never;
}[EndpointName];
type WithBody = {
  [K in EndpointName]: (typeof endpoints)[K] extends { body: object } ? K : never;
}[EndpointName];

/** A query value, by its option name in the endpoint table (the table owns the wire name). */
export function queryValue<K extends WithQuery>(
  op: K,
  key: keyof (typeof endpoints)[K]["query"] & string,
  call: Pick<Call, "query">,
): string | undefined {
  return call.query[(endpoints[op].query as Record<string, string>)[key]];
}

/** A JSON body field, by its option name in the endpoint table. */
export function bodyValue<K extends WithBody>(
  op: K,
  key: keyof (typeof endpoints)[K]["body"] & string,
  call: Pick<Call, "body">,
): unknown {
  const body = call.body;
  if (!body || typeof body !== "object") return undefined;
  return (body as Record<string, unknown>)[(endpoints[op].body as Record<string, string>)[key]];
}

/** The time window of metrics and dashboard data, bounded as the endpoint table says. */
export function minutesQuery(op: "getAppMetrics" | "getDashboardData", call: Call): number {
  const name = endpoints[op].query.minutes;
  const value = queryValue(op, "minutes", call);
  if (value === undefined) return 60;
  const n = Number(value);
  const [min, max] = endpoints[op].bounds.minutes;
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new EmulatorReplyError(400, `${name} must be a whole number from ${min} to ${max}`);
  }
  return n;
}

/**
 * Writes the change just made to the state file. When that fails, the change is undone in memory
 * too (so what is served matches what a restart would load) and the caller answers 500.
 */
export function commit(emu: Emu): void {
  try {
    emu.store.save();
  } catch (err) {
    emu.store.rollback();
    throw new EmulatorReplyError(
      500,
      `the change was not saved to the state file and has been undone: ${(err as Error).message}`,
    );
  }
}

/** Times as the wire writes them; a list writes each app's two on every call, so they are kept. */
export const iso = boundedMemo((ms: number) => new Date(ms).toISOString(), 20_000);

/** A reply body already written as JSON (a list built from kept parts): sent as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

import type { FastifyRequest } from "fastify";
import type { ResolvedOptions } from "./options";
import type { Rng } from "./rng";
import type { Store } from "./store";
import type { UserRecord, World } from "./world";

/** An `{ error }` reply with a status, thrown by route handlers. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

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
  if (!found) throw new ApiFailure(404, `${what} ${id} not found`);
  return found;
}

export function minutesQuery(value: string | undefined): number {
  if (value === undefined) return 60;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 43_200) {
    throw new ApiFailure(400, "minutes must be a whole number from 1 to 43200");
  }
  return n;
}

export const iso = (ms: number) => new Date(ms).toISOString();

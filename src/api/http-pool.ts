import type { Pool } from "undici";
import { once } from "../base/lazy";

/*
 * undici's package root loads all of undici: fetch, WebSocket, EventSource, the HTTP cache and
 * the mocks, 111 files. A provider host paid that (about 110 ms, on the one thread that answers
 * the engine) before its first request, and every create waiting behind it paid it too; four
 * cold hosts of one matrix paid it at once. The transport needs Pool and its request API only:
 * they are loaded from undici's own files, and the request API is put on Dispatcher.prototype
 * as the package root does. A release that moved those files gets the package root instead.
 */

type PoolClass = typeof Pool;

// Literal requires, loaded on first use: esbuild bundles each of them into the native plugin.
/* eslint-disable @typescript-eslint/no-require-imports */

/** Pool from undici's files, or undefined when they are not where undici 7 keeps them. */
function fromUndiciFiles(): PoolClass | undefined {
  try {
    const dispatcher = require("undici/lib/dispatcher/dispatcher") as unknown;
    const api = require("undici/lib/api") as { request?: unknown };
    const pool = require("undici/lib/dispatcher/pool") as unknown;
    if (typeof dispatcher !== "function" || typeof pool !== "function") return undefined;
    if (!(pool.prototype instanceof dispatcher) || typeof api.request !== "function") {
      return undefined;
    }
    // What undici's index.js does when loaded: `Object.assign(Dispatcher.prototype, api)`.
    Object.assign(dispatcher.prototype as object, api);
    return pool as PoolClass;
  } catch {
    return undefined;
  }
}

/** undici's Pool, loaded on first use. */
export const poolClass = once(
  (): PoolClass => fromUndiciFiles() ?? (require("undici") as typeof import("undici")).Pool,
);
/* eslint-enable @typescript-eslint/no-require-imports */

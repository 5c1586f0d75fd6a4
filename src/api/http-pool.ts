import { dirname, sep } from "node:path";
import type { Pool } from "undici";
import { once } from "../base";

/*
 * undici's package root loads all of undici: fetch, WebSocket, EventSource, the HTTP cache and
 * the mocks, 111 files. A provider host paid that (about 110 ms, on the one thread that answers
 * the engine) before its first request, and every create waiting behind it paid it too; four
 * cold hosts of one matrix paid it at once. The transport needs Pool and its request API only:
 * they are loaded from undici's own files, and the request API is put on Dispatcher.prototype
 * as the package root does. A release that moved those files gets the package root instead.
 */

type PoolClass = typeof Pool;

// Literal requires, each loaded on first use: esbuild bundles them into the native plugin.
/* eslint-disable @typescript-eslint/no-require-imports */
const dispatcherFile = once(() => require("undici/lib/dispatcher/dispatcher") as unknown);
const apiFile = once(() => require("undici/lib/api") as { request?: unknown });
const poolFile = once(() => require("undici/lib/dispatcher/pool") as unknown);
const packageRoot = once(() => require("undici") as typeof import("undici"));
/* eslint-enable @typescript-eslint/no-require-imports */

/** The files above, as Node names them. */
const FILES = ["undici/lib/dispatcher/dispatcher", "undici/lib/api", "undici/lib/dispatcher/pool"];

/** Where Node finds `spec`, or undefined where it finds nothing (in the native plugin's bundle). */
function resolved(spec: string): string | undefined {
  try {
    return require.resolve(spec);
  } catch {
    return undefined;
  }
}

/**
 * Whether Node finds every file in the undici that `require("undici")` loads. A file missing
 * there is looked for in the node_modules folders above, where another undici may be (a user's
 * undici 6, say): its request API on this undici's Dispatcher would mix two releases. In the
 * native plugin the requires below are esbuild's copies of our undici's files, whatever this
 * answers; a `false` there only costs the package root.
 */
function inOurUndici(): boolean {
  const manifest = resolved("undici/package.json");
  if (manifest === undefined) return true;
  const root = dirname(manifest) + sep;
  return FILES.every((spec) => resolved(spec)?.startsWith(root) === true);
}

/** Pool from undici's files, or undefined when they are not where undici 7 keeps them. */
function fromUndiciFiles(): PoolClass | undefined {
  try {
    if (!inOurUndici()) return undefined;
    const dispatcher = dispatcherFile();
    const api = apiFile();
    const pool = poolFile();
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
export const poolClass = once((): PoolClass => fromUndiciFiles() ?? packageRoot().Pool);

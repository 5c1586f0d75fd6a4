import { EventEmitter } from "node:events";
import { MAX_TIMER_MS } from "../base";
import type { AttemptStage, TimeoutPhase } from "./errors";
import type { UploadBody } from "./multipart";

/** A timer that never overflows: a limit past Node's maximum is as good as none. */
const timer = (fn: () => void, ms: number) => setTimeout(fn, Math.min(MAX_TIMER_MS, ms));

/** The three limits of one attempt. */
export interface TimeoutLimits {
  /** Opening the connection. */
  connectMs: number;
  /** No byte sent or received for this long: the server or the link has stalled. */
  idleMs: number;
  /**
   * The whole attempt, for requests without an upload. An upload is bounded by `idleMs` only,
   * so a large archive on a slow link finishes as long as bytes keep moving; its reply, from the
   * end of the upload, by this too (a reply that trickles forever ends).
   */
  overallMs: number;
}

export const DEFAULT_LIMITS: TimeoutLimits = {
  connectMs: 10_000,
  idleMs: 60_000,
  overallMs: 300_000,
};

/**
 * The abort handle undici takes as `signal`: its docs allow an EventEmitter with `aborted` and
 * `reason`. An AbortController per attempt costs ~10 µs, a twentieth of a small request.
 */
class AttemptSignal extends EventEmitter {
  aborted = false;
  reason: unknown;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit("abort");
  }
}

/**
 * Watches one attempt: its `signal` aborts after `idleMs` without progress either way, or after
 * `overallMs` for a request without an upload. Progress is every upload chunk pulled onto the
 * socket (pulls follow the socket's drain), the reply's headers and every reply chunk.
 */
export class AttemptClock {
  readonly #ctrl = new AttemptSignal();
  readonly #idle: NodeJS.Timeout;
  #overall: NodeJS.Timeout | undefined;
  #stage: AttemptStage;
  #expired: { phase: TimeoutPhase; limitMs: number; stage: AttemptStage } | undefined;
  #uploadFailure: { error: unknown } | undefined;

  constructor(
    readonly limits: TimeoutLimits,
    upload: boolean,
  ) {
    this.#stage = upload ? "sending" : "waiting";
    this.#idle = timer(() => this.#expire("idle", limits.idleMs), limits.idleMs);
    if (!upload) this.#startOverall();
  }

  #startOverall(): void {
    const { overallMs } = this.limits;
    this.#overall = timer(() => this.#expire("overall", overallMs), overallMs);
  }

  get signal(): EventEmitter {
    return this.#ctrl;
  }

  /** The limit that ran out, if one did, and what the attempt was doing then. */
  get expired() {
    return this.#expired;
  }

  /** What the upload body itself threw, if it did: the request then stopped before its end. */
  get uploadFailure() {
    return this.#uploadFailure;
  }

  /** Bytes moved: the idle limit starts over. */
  kick = (): void => {
    this.#idle.refresh();
  };

  gotHeaders(): void {
    this.#stage = "reading";
    this.kick();
  }

  /** Passes an upload body through, counting each chunk as progress. */
  watchUpload(body: UploadBody): UploadBody {
    const watched = async function* (this: AttemptClock) {
      try {
        // One chunk is asked for only after the socket took the one before, so pulls are progress.
        for await (const chunk of body) {
          this.kick();
          yield chunk;
        }
      } catch (error) {
        // The body's own failure (the archive), which undici reports as the request's.
        this.#uploadFailure = { error };
        throw error;
      }
      this.#stage = "waiting";
      this.kick();
      if (!this.#ctrl.aborted) this.#startOverall();
    };
    return watched.call(this);
  }

  dispose(): void {
    clearTimeout(this.#idle);
    if (this.#overall) clearTimeout(this.#overall);
  }

  #expire(phase: TimeoutPhase, limitMs: number): void {
    if (this.#expired) return;
    this.#expired = { phase, limitMs, stage: this.#stage };
    this.#ctrl.abort(new Error(`${phase} limit of ${limitMs} ms ran out`));
  }
}

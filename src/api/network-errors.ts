import {
  HostingConnectionError,
  HostingTimeoutError,
  type AttemptStage,
  type TimeoutPhase,
} from "./errors";
import { seconds } from "./deadline-errors";
import { DEFAULT_RETRY_POLICY, isNotConnected, type RetryPolicy } from "./retry";

/* A socket's failure → its error, and the words that say what happened and what to check. */

/**
 * Words for socket errors that show the request never left this machine. Whether one did is the
 * retry policy's decision (`notConnectedCodes`); these only say it.
 */
const NOT_CONNECTED_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
};

/** The client user's fix when the request never reached the service. */
const CHECK_URL = "check the apiUrl option and that the service is reachable";

const RAISE_IDLE = "raise the timeoutMs option if the service or the link is merely slow";

export interface NetworkFailureFacts {
  method: string;
  path: string;
  address: string;
  cause: unknown;
  connectMs: number;
  /** Set when one of the attempt's own limits ran out. */
  expired?: { phase: TimeoutPhase; limitMs: number; stage: AttemptStage };
  /** Decides which socket errors never reached the server (default: the client's default). */
  policy?: RetryPolicy;
}

/**
 * The one socket-failure → error mapping; `reachedServer`, the policy's reading of the socket's
 * code, feeds the retry decision.
 */
export function makeNetworkError(f: NetworkFailureFacts): {
  error: HostingConnectionError;
  reachedServer: boolean;
  timeout: boolean;
  bodyUnsent?: boolean;
} {
  const base = { method: f.method, path: f.path, address: f.address };
  const code = (f.cause as { code?: unknown } | undefined)?.code;
  const reachedServer = !isNotConnected(code, f.policy ?? DEFAULT_RETRY_POLICY);
  const at = `the Hosting API at ${f.address}`;
  if (f.expired) {
    const { phase, limitMs, stage } = f.expired;
    const what =
      phase === "overall"
        ? `no complete reply from ${at} within the overall limit of ${seconds(limitMs)}`
        : stage === "sending"
          ? `the upload to ${at} stalled: no bytes moved for ${seconds(limitMs)}`
          : stage === "waiting"
            ? `connected to ${at}, but no reply within ${seconds(limitMs)}`
            : `the reply from ${at} stalled: no bytes for ${seconds(limitMs)}`;
    // The idle limit is one a caller may raise for a slow service or link; the overall one is a
    // backstop, not a tuning knob.
    const fix = phase === "idle" ? { option: "timeoutMs", advice: RAISE_IDLE } : undefined;
    return {
      error: new HostingTimeoutError({ ...base, what, fix, phase, limitMs }, f.cause),
      reachedServer: true,
      timeout: true,
      bodyUnsent: stage === "sending",
    };
  }
  if (code === "UND_ERR_CONNECT_TIMEOUT") {
    const what = `could not connect to ${at} within ${seconds(f.connectMs)}`;
    const fix = { option: "apiUrl", advice: `${CHECK_URL}, or raise connectTimeoutMs` };
    return {
      error: new HostingTimeoutError(
        { ...base, what, fix, phase: "connect", limitMs: f.connectMs },
        f.cause,
      ),
      reachedServer,
      timeout: true,
    };
  }
  const why = f.cause instanceof Error ? f.cause.message : String(f.cause);
  if (typeof code === "string" && code in NOT_CONNECTED_WORDS) {
    const what = `could not connect to ${at} (${NOT_CONNECTED_WORDS[code]}, ${code})`;
    const fix = { option: "apiUrl", advice: CHECK_URL };
    return {
      error: new HostingConnectionError({ ...base, what, fix }, f.cause),
      reachedServer,
      timeout: false,
    };
  }
  const what = `the connection to ${at} closed before a whole reply (${why})`;
  return {
    error: new HostingConnectionError({ ...base, what }, f.cause, "HOSTING_CONNECTION_LOST"),
    reachedServer,
    timeout: false,
  };
}

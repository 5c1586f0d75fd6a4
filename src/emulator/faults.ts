import { z } from "zod";
import { endpoints, formatPath } from "../api/wire";
import { assertType, type SameShape } from "../base";
import type { FaultConfig, FaultRule } from "./fault-config";
import { Rng } from "./rng";

export type { FaultConfig, FaultKind, FaultRule } from "./fault-config";

/*
 * Misbehaviour on demand, so that retry and recovery code is proven rather than hoped for.
 * A rule matches a route key such as "POST /apps" or "GET /apps/{app_id}/metrics" ("*" for all).
 */

/** Every route key a rule may name: `"*"` and each endpoint of the shared table. */
const faultRouteKeys: readonly string[] = [
  "*",
  ...Object.values(endpoints).map((ep) => `${ep.method} ${ep.path}`),
];

// A rule naming no route would never fire, and a test relying on it would pass without its fault.
const routeKey = z.string().refine((r) => faultRouteKeys.includes(r), {
  error: (issue) =>
    `unknown route ${JSON.stringify(issue.input)}; valid routes: ` +
    faultRouteKeys.map((r) => JSON.stringify(r)).join(", "),
});

// The fields are documented once, on the interfaces in fault-config.ts.
const faultRuleSchema = z.strictObject({
  route: routeKey.default("*"),
  status: z.number().int().min(400).max(599).optional(),
  retryAfterSeconds: z.number().min(0).optional(),
  reset: z.boolean().optional(),
  commitThenDrop: z.boolean().optional(),
  commitThenStatus: z.number().int().min(400).max(599).optional(),
  latencyMs: z.number().int().min(0).optional(),
  probability: z.number().min(0).max(1).default(1),
  times: z.number().int().positive().optional(),
  after: z.number().int().min(0).default(0),
});

const faultConfigSchema = z.strictObject({
  rules: z.array(faultRuleSchema).default([]),
  rateLimit: z
    .strictObject({
      requests: z.number().int().positive(),
      windowMs: z.number().int().positive().default(1000),
    })
    .optional(),
});

assertType<SameShape<z.input<typeof faultRuleSchema>, FaultRule>>(true);
assertType<SameShape<z.input<typeof faultConfigSchema>, FaultConfig>>(true);

/** Checks a fault configuration; the error names the offending field, e.g. `rules[0].route`. */
export function parseFaultConfig(
  input: unknown,
): { ok: true; config: z.output<typeof faultConfigSchema> } | { ok: false; error: string } {
  const parsed = faultConfigSchema.safeParse(input ?? {});
  if (parsed.success) return { ok: true, config: parsed.data };
  const issue = parsed.error.issues[0];
  const where = formatPath(issue.path);
  return {
    ok: false,
    error: `invalid fault configuration: ${where ? `${where}: ` : ""}${issue.message}`,
  };
}
type Rule = z.output<typeof faultRuleSchema> & { fired: number; seen: number };

/** What the matching rules make of one request: the misbehaviour parts of a rule. */
export type FaultDecision = Pick<
  FaultRule,
  "status" | "retryAfterSeconds" | "reset" | "commitThenDrop" | "commitThenStatus" | "latencyMs"
>;

export class Faults {
  #rules: Rule[] = [];
  #rateLimit: { requests: number; windowMs: number } | undefined;
  #windows = new Map<string, { start: number; count: number }>();
  readonly #rng: Rng;

  constructor(seed: string, config: FaultConfig = {}) {
    this.#rng = new Rng(`faults:${seed}`);
    this.configure(config);
  }

  /** Replaces the whole fault configuration. */
  configure(config: FaultConfig): void {
    const result = parseFaultConfig(config);
    if (!result.ok) throw new Error(result.error);
    const parsed = result.config;
    this.#rules = parsed.rules.map((r) => ({ ...r, fired: 0, seen: 0 }));
    this.#rateLimit = parsed.rateLimit;
    this.#windows.clear();
  }

  /** The combined decision of every rule that fires for this route. */
  decide(routeKey: string): FaultDecision {
    const out: FaultDecision = {};
    for (const rule of this.#rules) {
      if (rule.route !== "*" && rule.route !== routeKey) continue;
      if (rule.seen++ < rule.after) continue;
      if (rule.times !== undefined && rule.fired >= rule.times) continue;
      if (rule.probability < 1 && this.#rng.next() >= rule.probability) continue;
      rule.fired++;
      if (rule.latencyMs) out.latencyMs = (out.latencyMs ?? 0) + rule.latencyMs;
      if (rule.status && out.status === undefined) {
        out.status = rule.status;
        out.retryAfterSeconds = rule.retryAfterSeconds;
      }
      if (rule.reset) out.reset = true;
      if (rule.commitThenDrop) out.commitThenDrop = true;
      if (rule.commitThenStatus && out.commitThenStatus === undefined) {
        out.commitThenStatus = rule.commitThenStatus;
      }
    }
    return out;
  }

  /**
   * Counts one request of this token against its fixed window. Undefined without a rate limit;
   * else the window's state, as the RateLimit headers report it.
   */
  countRequest(token: string, now = Date.now()): RateWindow | undefined {
    const limit = this.#rateLimit;
    if (!limit) return undefined;
    let w = this.#windows.get(token);
    if (!w || now - w.start >= limit.windowMs) {
      w = { start: now, count: 0 };
      this.#windows.set(token, w);
    }
    w.count++;
    return {
      limit: limit.requests,
      windowMs: limit.windowMs,
      remaining: Math.max(0, limit.requests - w.count),
      resetMs: w.start + limit.windowMs - now,
      over: w.count > limit.requests,
    };
  }
}

export interface RateWindow {
  limit: number;
  windowMs: number;
  remaining: number;
  resetMs: number;
  over: boolean;
}

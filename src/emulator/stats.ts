import type { FaultKind } from "./fault-config";

/** Counts requests per route and faults injected, so tests can assert how many calls were made. */
export class Stats {
  requests: Record<string, number> = {};
  faults: Record<FaultKind, number> = {
    status: 0,
    reset: 0,
    commitThenDrop: 0,
    commitThenStatus: 0,
    latency: 0,
    rateLimited: 0,
  };

  countRequest(routeKey: string): void {
    this.requests[routeKey] = (this.requests[routeKey] ?? 0) + 1;
  }

  countFault(kind: FaultKind): void {
    this.faults[kind]++;
  }

  snapshot(): StatsSnapshot {
    const total = Object.values(this.requests).reduce((a, b) => a + b, 0);
    return { total, requests: { ...this.requests }, faults: { ...this.faults } };
  }

  reset(): void {
    this.requests = {};
    for (const k of Object.keys(this.faults) as FaultKind[]) this.faults[k] = 0;
  }
}

/** Counts of an emulator's requests and injected faults. */
export interface StatsSnapshot {
  /** Requests served, over every route. */
  total: number;
  /** Requests per route key, e.g. `"GET /apps"`. */
  requests: Record<string, number>;
  /** Faults injected, per kind. */
  faults: Record<FaultKind, number>;
}

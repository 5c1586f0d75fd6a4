import type { FaultKind } from "./faults";

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

  snapshot() {
    const total = Object.values(this.requests).reduce((a, b) => a + b, 0);
    return { total, requests: { ...this.requests }, faults: { ...this.faults } };
  }

  reset(): void {
    this.requests = {};
    for (const k of Object.keys(this.faults) as FaultKind[]) this.faults[k] = 0;
  }
}

export type StatsSnapshot = ReturnType<Stats["snapshot"]>;

import { useInProcessProvider } from "../helpers/provider-env";

// Setup takes a while, so each create polls several times. Real time: what is tested is how
// waits that overlap in time share their list calls (a virtual clock serialises them).
const env = useInProcessProvider({ setupDelayMs: 1500 }, { realTime: true });

describe("creating many apps at once", () => {
  test("20 parallel creates share their list calls: before-views and setup polls", async () => {
    const createThem = await env.checkApps(Array.from({ length: 20 }, (_, i) => `many-${i}`));
    env.emu.resetStats();
    const made = await createThem();
    expect(new Set(made.map((m) => m.id)).size).toBe(20);
    // Before-views and polls share lists: a list per create (or per create and poll) would be 40
    // or more. A bound tied to wall time would flake on a loaded machine, so none is asserted.
    const lists = env.emu.stats().requests["GET /apps"] ?? 0;
    expect(lists).toBeLessThan(20);
  });
});

import { useInProcessProvider } from "../helpers/provider-env";

// What a create costs in list calls when setup is quick. Real time: the sharing is between waits
// that overlap in time (a virtual clock serialises them).
const env = useInProcessProvider({ setupDelayMs: 50 }, { realTime: true });

async function createAll(names: string[]) {
  const createThem = await env.checkApps(names);
  env.emu.resetStats();
  const made = await createThem();
  return { made, requests: env.emu.stats().requests };
}

describe("the list calls of creates", () => {
  test("one create with a quick setup: its 'before' view, and one list that verifies the app and sees its setup done", async () => {
    const { made, requests } = await createAll(["lists-one"]);
    expect(made[0].properties.setup).toBe(true);
    expect(requests["POST /apps"]).toBe(1);
    expect(requests["GET /apps"]).toBe(2);
  });

  test("20 creates begun together share the 'before' view and the lists after their POSTs", async () => {
    const names = Array.from({ length: 20 }, (_, i) => `lists-many-${i}`);
    const { made, requests } = await createAll(names);
    expect(new Set(made.map((m) => m.id)).size).toBe(20);
    // Each create alone would make 40 lists. Shared: a "before" view for all (two at most: a
    // create that began after the first went out waits for the next), then a list at most every
    // list gap (50 ms while nothing is held back) over the time the POSTs were answered, plus one
    // at each end and one for a reply read late. On a quiet machine the POSTs take ~100 ms: 3-5
    // lists. The bound follows the server's own spread, so a loaded machine cannot fail it.
    const created = made.map((m) => env.emu.world.apps.find((a) => a.id === m.id)!.created_at);
    const spreadMs = Math.max(...created) - Math.min(...created);
    expect(requests["GET /apps"]).toBeLessThanOrEqual(2 + 3 + Math.ceil(spreadMs / 50));
  });
});

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

  test("20 creates begun together share the 'before' view the first of them asked for", async () => {
    const names = Array.from({ length: 20 }, (_, i) => `lists-many-${i}`);
    const { made, requests } = await createAll(names);
    expect(new Set(made.map((m) => m.id)).size).toBe(20);
    // One "before" view for all, then the lists after the POSTs, shared by those answered within
    // a list gap (250 ms) of each other: 3 here. Each create alone would make 40; a "before" view
    // of each create's own and a first look apart from the verifying list made 7.
    expect(requests["GET /apps"]).toBeLessThanOrEqual(5);
  });
});

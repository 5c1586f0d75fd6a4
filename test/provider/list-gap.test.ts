import type { AppListEntry, HostingClient } from "../../src/api/wire";
import { listAppsSince } from "../../src/provider/app-directory";
import { setClock } from "../../src/provider/clock";

/*
 * How long a create waits for a list newer than the one in flight: a list gap of 250 ms while
 * the rate limit holds requests back (a list then costs a create its turn), 50 ms otherwise (it
 * costs nothing but itself, and `pulumi up` runs each create through two such waits). On a
 * virtual clock: the list calls are counted and the waits recorded, nothing sleeps.
 */

let now = 0;
const sleeps: number[] = [];
beforeEach(() => {
  now = 1_000_000;
  sleeps.length = 0;
  setClock({
    now: () => now,
    setTimeout: (wake: () => void, ms: number) => {
      sleeps.push(ms);
      now += ms;
      return setImmediate(wake);
    },
    clearTimeout: (h) => clearImmediate(h as NodeJS.Immediate),
  });
});
afterEach(() => setClock());

/** A client whose lists answer at once, congested or not as the test says. */
function fakeClient(congested: boolean) {
  let lists = 0;
  const client = {
    congested,
    listApps: async (): Promise<AppListEntry[]> => {
      lists++;
      return [];
    },
  };
  return { client: client as unknown as HostingClient, lists: () => lists };
}

test.each([
  [false, 50],
  [true, 250],
])("congested %p: a list newer than the last one waits %i ms after it began", async (busy, gap) => {
  const { client, lists } = fakeClient(busy);
  await listAppsSince(client, now);
  now += 10; // a create that began after that list was requested needs a newer one
  await listAppsSince(client, now);
  expect(lists()).toBe(2);
  expect(sleeps).toEqual([gap - 10]);
});

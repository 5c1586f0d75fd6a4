import { HostingClient } from "../../src/api";
import { providerHandlers } from "../../src";
import { PATIENT_RETRY_POLICY } from "../../src/api/retry";
import { generatedName } from "../../src/provider/app/auto-name";
import { setClock, type Clock } from "../../src/provider/clock";
import type { FaultRule, RunningEmulator } from "../../src/emulator";
import { newApp, useEmulators } from "../helpers/emulator";
import { fixtureServer, json, text } from "../helpers/fixture-server";
import { appSource } from "../helpers/provider-env";
import { TestClock } from "../helpers/test-clock";

/*
 * Lost-reply recovery of POST /apps against an adversarial world, with the App's handlers called
 * in this process on a virtual clock: apps of other names appear while the provider waits, ours
 * appears only at its second look, the app list fails in every transient way and past the
 * create's budget, and plain refusals must not be mistaken for lost replies. Errors are compared
 * by their fields (code, candidates, status) and by the words a user reads, in full.
 */

/**
 * The provider's time (a {@link TestClock.virtual}), plus what the world does while the provider
 * waits: an event runs inside the provider's sleep once the provider has waited `ms` in all since
 * the event was planned. Waits that are not the provider's choice (the gap between two app lists,
 * at most 250 ms) never reach the 500 ms the events below use.
 */
class WaitingWorld implements Clock {
  readonly #time = TestClock.virtual();
  #waited = 0;
  #events: { at: number; run: () => Promise<unknown> }[] = [];
  /** Every wait the provider asked for, in ms. */
  sleeps: number[] = [];

  readonly now = (): number => this.#time.now();

  /** The provider's only timers are its waits: each a sleep of this world. */
  readonly setTimeout = (wake: () => void, ms: number): unknown => void this.sleep(ms).then(wake);
  readonly clearTimeout = (): void => {};

  readonly sleep = async (ms: number): Promise<void> => {
    await this.#time.sleep(ms);
    this.sleeps.push(ms);
    this.#waited += ms;
    const due = this.#events.filter((e) => e.at <= this.#waited);
    this.#events = this.#events.filter((e) => e.at > this.#waited);
    for (const e of due) await e.run();
  };

  /** Runs `run` inside the provider's wait once it has waited `ms` more than now. */
  afterWaiting(ms: number, run: () => Promise<unknown>): void {
    this.#events.push({ at: this.#waited + ms, run });
  }

  reset(): void {
    this.#events = [];
    this.sleeps = [];
  }
}

const world = new WaitingWorld();
const app = providerHandlers("App");
let emu: RunningEmulator;
const emulators = useEmulators();
let token: string;

/** Points the App's handlers at a service, as a stack's config does. */
async function configure(apiUrl: string): Promise<void> {
  const config: Record<string, string> = { "hosting:apiUrl": apiUrl, "hosting:token": token };
  await app.configure!({ config: { get: (k: string) => config[k] } } as never);
}

beforeAll(async () => {
  setClock(world);
  emu = await emulators.start({ seed: "recovery", setupDelayMs: 50, now: world.now });
  token = emu.issueToken();
  await configure(emu.url);
});
afterAll(async () => {
  setClock();
});
beforeEach(() => world.reset());
afterEach(() => emu.setFaults({}));

type Outcome = { id?: string; error?: Error & Record<string, unknown> };

/** Checks the App, then (with stats reset and the faults set) creates it. */
async function create(
  name: string,
  rules: FaultRule[],
  extra: Record<string, unknown> = {},
): Promise<Outcome> {
  const checked = await app.check!({}, { source: await appSource(), name, ...extra });
  expect(checked.failures).toEqual([]);
  emu.resetStats();
  emu.setFaults({ rules });
  return app.create!(checked.inputs).then(
    (r) => ({ id: r.id }),
    (error: Error & Record<string, unknown>) => ({ error }),
  );
}

/** Makes an app as another program using the same token would (or the service, finishing late). */
async function makeApp(name: string, settings: Record<string, unknown> = {}): Promise<string> {
  const other = new HostingClient({ apiUrl: emu.url, token });
  try {
    return (await newApp(other, name, settings)).id;
  } finally {
    await other.close();
  }
}

const idsNamed = (name: string) => emu.world.apps.filter((a) => a.name === name).map((a) => a.id);
const lists = () => emu.stats().requests["GET /apps"] ?? 0;
/** The provider's own waits of a second (its second look, its next try at the list). */
const secondWaits = () => world.sleeps.filter((ms) => ms === 1000).length;

/** How often the provider's client sends one list that keeps failing. */
const TRIES = PATIENT_RETRY_POLICY.maxRetries + 1;

/** POST /apps answered by a gateway that gave up first: nothing made yet. */
const GATEWAY_GAVE_UP: FaultRule = { route: "POST /apps", status: 504, times: 1 };
/** POST /apps applied, its reply lost on the way back. */
const COMMITTED_THEN_502: FaultRule = { route: "POST /apps", commitThenStatus: 502, times: 1 };

describe("which app is ours", () => {
  test("our app appears only at the second look (the gateway answered first): it is adopted", async () => {
    let made = "";
    world.afterWaiting(500, async () => (made = await makeApp("late")));
    const out = await create("late", [GATEWAY_GAVE_UP]);
    expect(out.error).toBeUndefined();
    expect(made).not.toBe("");
    expect(out.id).toBe(made);
    expect(idsNamed("late")).toEqual([made]);
  });

  test("an app of another name appearing with ours is no candidate: ours is adopted", async () => {
    let ours = "";
    let theirs = "";
    world.afterWaiting(500, async () => {
      theirs = await makeApp("someone-else");
      ours = await makeApp("mine");
    });
    const out = await create("mine", [GATEWAY_GAVE_UP]);
    expect(out.error).toBeUndefined();
    expect(out.id).toBe(ours);
    expect(idsNamed("someone-else")).toEqual([theirs]);
  });

  test("an app of our name but another subdomain is no candidate when ours sets one", async () => {
    let ours = "";
    world.afterWaiting(500, async () => {
      await makeApp("shop", { subdomain: "shop-theirs" });
      ours = await makeApp("shop", { subdomain: "shop-ours" });
    });
    const out = await create("shop", [GATEWAY_GAVE_UP], { subdomain: "shop-ours" });
    expect(out.error).toBeUndefined();
    expect(out.id).toBe(ours);
    expect(idsNamed("shop")).toHaveLength(2);
  });

  test("without a subdomain of ours, a same-named app with any subdomain is a candidate: none is adopted", async () => {
    let made: string[] = [];
    world.afterWaiting(500, async () => {
      made = [await makeApp("twin", { subdomain: "twin-theirs" }), await makeApp("twin")];
    });
    const out = await create("twin", [GATEWAY_GAVE_UP]);
    expect(out.id).toBeUndefined();
    expect(out.error?.code).toBe("HOSTING_CREATE_REPLY_LOST");
    expect([...(out.error?.candidates as string[])].sort()).toEqual([...made].sort());
    expect(out.error?.message).toBe(
      `creating app "twin": POST /apps failed with 504: injected fault: HTTP 504. The reply was ` +
        `lost and 2 new apps named "twin" appeared (${(out.error?.candidates as string[]).join(", ")}); ` +
        "none is adopted, since any of them may belong to another stack or program using this " +
        "account. Set adoptId on this App to the one that is yours (one no other stack holds), " +
        "delete those that are nobody's, and run `pulumi up` again.",
    );
  });

  test("an app with this App's own generated name is not taken; the new one is deleted again and the error names the older", async () => {
    const urn = "urn:pulumi:test::recovery::pulumi-nodejs:dynamic/hosting:App::again";
    const name = generatedName(urn);
    const older = await makeApp(name);
    const out = await create(name, [COMMITTED_THEN_502], { __urn: urn });
    expect(out.id).toBeUndefined();
    expect(out.error?.code).toBe("HOSTING_APP_LEFT_OVER");
    expect(out.error?.candidates).toEqual([older]);
    expect(out.error?.message).toContain(`adoptId: "${older}"`);
    // The app this create made is gone again: one app of the name, the older one.
    expect(idsNamed(name)).toEqual([older]);
  });

  test("a same-named app of a name the program chose is reported, not refused: it may be another stack's", async () => {
    const older = await makeApp("chosen");
    const out = await create("chosen", [COMMITTED_THEN_502]);
    expect(out.error).toBeUndefined();
    expect(idsNamed("chosen").sort()).toEqual([older, out.id].sort());
  });

  test.each([
    ["before the provider's first look", 0],
    ["between its recovery and its check of what was made", 1000],
  ])(
    "the app of a lost reply deleted by someone else %s: nothing gone is handed to the engine",
    async (_when, ms) => {
      const name = `deleted-${ms}`;
      world.afterWaiting(ms, async () => {
        const victim = emu.world.apps.find((a) => a.name === name);
        const other = new HostingClient({ apiUrl: emu.url, token });
        if (victim) await other.deleteApp(victim.id).finally(() => other.close());
      });
      const out = await create(name, [COMMITTED_THEN_502]);
      // Either an app that exists (made again) is the stack's, or nothing is, and no id is kept.
      if (out.id !== undefined) {
        expect(idsNamed(name)).toEqual([out.id]);
        return;
      }
      expect(out.error?.code).toBe("HOSTING_APP_NOT_TAKEN");
      expect(out.error?.id).toBeUndefined();
      expect(out.error?.message).toMatch(/which is gone since; it is not taken, and not kept/);
      expect(idsNamed(name)).toEqual([]);
    },
  );

  test("nothing appears, even after the second look: the create did not take effect, so it is sent again", async () => {
    const out = await create("never", [GATEWAY_GAVE_UP]);
    expect(out.error).toBeUndefined();
    expect(idsNamed("never")).toEqual([out.id]);
    expect(secondWaits()).toBe(1);
    expect(emu.stats().requests["POST /apps"]).toBe(2);
  });

  test("a create proven not applied every time, past its budget: it says so and made nothing", async () => {
    const always504: FaultRule = { route: "POST /apps", status: 504 };
    const out = await create("never-ever", [always504], { setupTimeoutSeconds: 3 });
    expect(idsNamed("never-ever")).toEqual([]);
    expect(out.error?.code).toBe("HOSTING_CREATE_REPLY_LOST");
    expect(out.error?.candidates).toStrictEqual([]);
    expect(out.error?.message).toBe(
      'creating app "never-ever": POST /apps failed with 504: injected fault: HTTP 504. No new ' +
        'app named "never-ever" appeared, so the create did not take effect, and the create\'s ' +
        "time budget (setupTimeoutSeconds) is spent: run `pulumi up` again",
    );
  });
});

test.each([
  [400, "HOSTING_BAD_REQUEST"],
  [409, "HOSTING_CONFLICT"],
])(
  "a plain %s refusal is the service's answer, not a lost reply: nothing is looked for",
  async (status, code) => {
    const out = await create(`refused-${status}`, [{ route: "POST /apps", status, times: 1 }]);
    expect(out.id).toBeUndefined();
    expect(out.error).toMatchObject({ status, code, mayHaveTakenEffect: false });
    expect(out.error?.lostReply).toBeUndefined();
    expect(idsNamed(`refused-${status}`)).toEqual([]);
    // The only list is the one taken before the POST.
    expect(lists()).toBe(1);
    expect(secondWaits()).toBe(0);
  },
);

describe("the app list during recovery", () => {
  // The client's own tries of a list, each failing (Retry-After 0: no real waiting).
  const failingList = (fault: Partial<FaultRule>, times = TRIES): FaultRule => ({
    route: "GET /apps",
    after: 1,
    times,
    ...(fault.reset ? {} : { retryAfterSeconds: 0 }),
    ...fault,
  });

  test.each<[string, Partial<FaultRule>]>([
    ["408", { status: 408 }],
    ["exactly 500", { status: 500 }],
    ["503", { status: 503 }],
  ])("a list failing with %s is asked again a second later", async (label, fault) => {
    const name = `list-${label.replace(/\W/g, "")}`;
    const out = await create(name, [COMMITTED_THEN_502, failingList(fault)]);
    expect(out.error).toBeUndefined();
    expect(idsNamed(name)).toEqual([out.id]);
    expect(secondWaits()).toBe(1);
  });

  test("a list reset twice is ridden out by the client's own retries", async () => {
    const out = await create("list-reset", [COMMITTED_THEN_502, failingList({ reset: true }, 2)]);
    expect(out.error).toBeUndefined();
    expect(idsNamed("list-reset")).toEqual([out.id]);
    expect(secondWaits()).toBe(0);
  });

  test("a list refused for good (403) is not asked again: the error says how to find out", async () => {
    const out = await create("list-403", [COMMITTED_THEN_502, failingList({ status: 403 }, 1)]);
    expect(out.id).toBeUndefined();
    expect(secondWaits()).toBe(0);
    expect(lists()).toBe(2);
    expect(out.error?.code).toBe("HOSTING_CREATE_REPLY_LOST");
    expect(out.error?.candidates).toStrictEqual([]);
    expect((out.error?.cause as Record<string, unknown>).mayHaveTakenEffect).toBe(true);
    const sentAt = /created at (\S+) or later/.exec(out.error?.message ?? "")?.[1] ?? "";
    expect(out.error?.message).toBe(
      'creating app "list-403": POST /apps failed with 502: injected fault: HTTP 502 after ' +
        "applying. The reply was lost, and the app list could not be read to tell whether the " +
        "app was made (GET /apps failed with 403: injected fault: HTTP 403). Before running " +
        "`pulumi up` again, list your apps (getApps() or the dashboard): if an app named " +
        `"list-403" was created at ${sentAt} or later and no other stack or program of this ` +
        "account made one of that name at that moment, set adoptId to its id on this App; if " +
        "none was, just run `pulumi up` again.",
    );
    expect(new Date(sentAt).toISOString()).toBe(sentAt);
    // The app was made: the message's advice is what finds it.
    expect(idsNamed("list-403")).toHaveLength(1);
  });

  test("a list answered with a page that is not the app list is not asked again", async () => {
    // A proxy in the way: the app list comes back as its sign-in page, which asking again won't change.
    const server = await fixtureServer([
      json(200, []),
      json(502, { error: "bad gateway" }),
      text(200, "<html>sign in to continue</html>"),
    ]);
    await configure(server.url);
    try {
      const checked = await app.check!({}, { source: await appSource(), name: "proxied" });
      const err = (await app.create!(checked.inputs).catch((e: unknown) => e)) as Error &
        Record<string, unknown>;
      expect(err.code).toBe("HOSTING_CREATE_REPLY_LOST");
      expect(err.message).toMatch(/the app list could not be read/);
      expect(server.seen.map((r) => r.method)).toEqual(["GET", "POST", "GET"]);
      expect(secondWaits()).toBe(0);
    } finally {
      await configure(emu.url);
      await server.close();
    }
  });

  test("a list failing past the create's budget (setupTimeoutSeconds 2.9): tried at 0, 1 and 2 s", async () => {
    const out = await create(
      "list-budget",
      [COMMITTED_THEN_502, failingList({ status: 500 }, 1000)],
      { setupTimeoutSeconds: 2.9 },
    );
    expect(out.id).toBeUndefined();
    expect(out.error?.code).toBe("HOSTING_CREATE_REPLY_LOST");
    expect(out.error?.message).toMatch(/could not be read .*\(GET \/apps failed with 500: /);
    expect(secondWaits()).toBe(2);
    expect(lists()).toBe(1 + 3 * TRIES);
  });
});

test("a create waiting on a lost reply does not hold up a create of another name", async () => {
  let otherDone: Promise<Outcome> | undefined;
  let ours = "";
  // While the first create waits for its second look, a create of another name runs to its end.
  world.afterWaiting(500, async () => {
    otherDone = create("unblocked", []);
    await otherDone;
    ours = await makeApp("waiting");
  });
  const out = await create("waiting", [GATEWAY_GAVE_UP]);
  expect(out.id).toBe(ours);
  const other = await otherDone!;
  expect(other.error).toBeUndefined();
  expect(idsNamed("unblocked")).toEqual([other.id]);
}, 20_000);

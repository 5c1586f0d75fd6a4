import { progressIntervalMs } from "../../src/connection/environment";
import { reportRetryWait, waitProgress } from "../../src/connection/progress";
import { captureOutput } from "../helpers/output";

/*
 * The progress lines a person running `pulumi up` reads during long waits (on stdout, which the
 * engine shows line by line), on a clock the test moves.
 */

let output: ReturnType<typeof captureOutput>;
const saved = process.env.HOSTING_PROGRESS_SECONDS;
beforeEach(() => {
  output = captureOutput();
  process.env.HOSTING_PROGRESS_SECONDS = "10";
});
afterEach(() => {
  output.restore();
  if (saved === undefined) delete process.env.HOSTING_PROGRESS_SECONDS;
  else process.env.HOSTING_PROGRESS_SECONDS = saved;
});

/** A wait on a clock that moves only when told. */
function wait(what: string, timeoutS: number) {
  let t = 5_000;
  const progress = waitProgress(what, timeoutS, () => t);
  return { progress, advance: (ms: number) => (t += ms) };
}

describe("a wait's progress lines", () => {
  test("a wait that times out: a line per interval, then how long it waited before giving up", () => {
    const { progress, advance } = wait('app "web" (a1): setup', 25);
    for (let i = 0; i < 25; i++) {
      advance(1000);
      progress.tick();
    }
    progress.end(false);
    expect(output.stdout()).toBe(
      'hosting: app "web" (a1): setup: still waiting after 10 s (up to 25 s)\n' +
        'hosting: app "web" (a1): setup: still waiting after 20 s (up to 25 s)\n' +
        'hosting: app "web" (a1): setup: gave up after 25 s\n',
    );
  });

  test("a long wait that ends well says done, with its length", () => {
    const { progress, advance } = wait("custom domain www.x.test on app a1: activation", 300);
    advance(12_400);
    progress.tick();
    advance(3_000);
    progress.end(true);
    expect(output.stdout()).toBe(
      "hosting: custom domain www.x.test on app a1: activation: still waiting after 12 s (up to 300 s)\n" +
        "hosting: custom domain www.x.test on app a1: activation: done after 15 s\n",
    );
  });

  test("a quick wait prints nothing, whether it ends well or not", () => {
    for (const done of [true, false]) {
      const { progress, advance } = wait("quick", 60);
      advance(9_999);
      progress.tick();
      progress.end(done);
    }
    expect(output.stdout()).toBe("");
  });

  test("HOSTING_PROGRESS_SECONDS sets the interval; what is not a positive number means 10 s", () => {
    process.env.HOSTING_PROGRESS_SECONDS = "2";
    expect(progressIntervalMs()).toBe(2000);
    process.env.HOSTING_PROGRESS_SECONDS = "0.5";
    expect(progressIntervalMs()).toBe(500);
    for (const bad of ["0", "-3", "ten", ""]) {
      process.env.HOSTING_PROGRESS_SECONDS = bad;
      expect({ bad, ms: progressIntervalMs() }).toEqual({ bad, ms: 10_000 });
    }
  });
});

describe("a retry's wait", () => {
  const event = {
    operation: "listApps",
    method: "GET",
    path: "/apps",
    attempt: 1,
    message: "m",
  } as const;

  test("a wait of an interval or more is reported, saying why", () => {
    reportRetryWait({ ...event, reason: "throttled", status: 429, waitMs: 12_400 });
    reportRetryWait({ ...event, reason: "transient", status: 503, waitMs: 10_000 });
    reportRetryWait({ ...event, reason: "transient", status: undefined, waitMs: 20_600 });
    expect(output.stdout()).toBe(
      "hosting: GET /apps: throttled by the service, waiting 12 s\n" +
        "hosting: GET /apps: retrying (503), waiting 10 s\n" +
        "hosting: GET /apps: retrying (no reply), waiting 21 s\n",
    );
  });

  test("a shorter wait is not", () => {
    reportRetryWait({ ...event, reason: "throttled", status: 429, waitMs: 9_999 });
    expect(output.stdout()).toBe("");
  });
});

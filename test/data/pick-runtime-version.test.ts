import { pickRuntimeVersion } from "../../src";
import type { RuntimeVersion } from "../../src";

const v = (version: string, recommended: boolean, latest: boolean): RuntimeVersion => ({
  language: "node",
  version,
  recommended,
  latest,
});

describe("pickRuntimeVersion when nothing carries the flag asked for", () => {
  test('no recommended version: the error suggests prefer: "latest"', () => {
    expect(() =>
      pickRuntimeVersion([v("20.1.0", false, false), v("22.0.0", false, true)], {
        language: "node",
      }),
    ).toThrow('no recommended version is flagged for node: pass prefer: "latest"');
  });

  test("neither flag: the error lists the versions to pin", () => {
    expect(() =>
      pickRuntimeVersion([v("20.1.0", false, false), v("22.0.0", false, false)], {
        language: "node",
        prefer: "latest",
      }),
    ).toThrow(
      "no latest version is flagged for node: none is flagged recommended either; pin one of 20.1.0, 22.0.0 in runtime",
    );
  });
});

import { readdirSync } from "node:fs";
import { goldenVersions, replayGoldenShard, SHARDS } from "../helpers/golden-replay";

// The golden upgrade states (see test/helpers/golden-replay.ts), shard 0; golden-shard-*.test.ts hold the rest.

test("there is a golden state for at least one release", () => {
  expect(goldenVersions().length).toBeGreaterThan(0);
});

test("every shard has its test file", () => {
  const files = readdirSync(__dirname).filter((f) => /^golden-shard-\d+\.test\.ts$/.test(f));
  expect(files.sort()).toEqual(
    Array.from({ length: SHARDS - 1 }, (_, i) => `golden-shard-${i + 1}.test.ts`).sort(),
  );
});

replayGoldenShard(0);

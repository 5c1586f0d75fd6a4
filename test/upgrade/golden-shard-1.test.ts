import { replayGoldenShard } from "../helpers/golden-replay";

// The golden upgrade states (see test/helpers/golden-replay.ts), shard 1: run beside golden.test.ts.
replayGoldenShard(1);

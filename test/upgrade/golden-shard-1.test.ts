import { replayGoldenShard } from "./golden-replay";

// The golden upgrade states (see golden-replay.ts), shard 1: run beside golden.test.ts.
replayGoldenShard(1);

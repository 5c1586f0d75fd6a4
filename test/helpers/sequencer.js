/*
 * Test order for `npm test`. With timings from an earlier run, jest's own order (slowest first)
 * stands. Without them (a clean clone in CI) jest orders by file size, and a file that spawns
 * Pulumi's program runtime, npm or tsc may start last and keep one worker busy for half a minute
 * after the other is done. Such files start first here; each group keeps jest's order.
 */
const { readFileSync } = require("node:fs");
const Sequencer = require("@jest/test-sequencer").default;

/** Folders whose files drive whole programs, packs or compilers. */
const HEAVY_DIR = /[\\/]test[\\/](engine|e2e|native|package|types|upgrade)[\\/]/;
/** A file elsewhere that starts child processes: a provider host, npm, the emulator's bin. */
const SPAWNS = /child_process|helpers\/(deployment|provider-host|packed-tarball|spawn-emulator)/;

class SpawningFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((t) => t.duration != null)) return sorted;
    // Each file is read once; a stable sort keeps jest's order within each group.
    const spawns = new Map(
      sorted.map((t) => [t, HEAVY_DIR.test(t.path) || SPAWNS.test(readFileSync(t.path, "utf8"))]),
    );
    return sorted.sort((a, b) => Number(spawns.get(b)) - Number(spawns.get(a)));
  }
}

module.exports = SpawningFirst;

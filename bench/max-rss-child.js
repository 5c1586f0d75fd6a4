// Preloaded into a program run by the failing-run bench: appends the process's peak RSS (KiB)
// to BENCH_RSS_FILE when it exits.
const fs = require("node:fs");

process.on("exit", () => {
  fs.appendFileSync(process.env.BENCH_RSS_FILE, `${process.resourceUsage().maxRSS}\n`);
});

// Jest's node environment, plus a prompt exit for jest's worker processes.
//
// Why: after the last test file, jest tells each worker to end and force-kills it (printing "A
// worker process has failed to exit gracefully ... improper teardown") if the process is still
// there 500 ms later. Our workers end with no handle left open: their 'exit' event fires within a
// few ms. What outlasted the 500 ms was Node's own teardown after 'exit' (freeing a worker heap
// of ~1 GB from ~20 test files), which on a busy 2-core machine takes longer than that. Leaving
// through process.reallyExit() once the 'exit' listeners have run skips that teardown, as
// process.exit() does; no JS runs after 'exit' anyway.
const { join } = require("node:path");
const { TestEnvironment } = require("jest-environment-node");
const { toolCache } = require("../../scripts/cache-entry");

// The source-hash index and other caches of the package go under test/.work, never into the
// developer's own ~/.cache (and the programs and CLIs the tests start inherit it). The tools the
// tests need (the CLI, SDKs, a venv) stay in the developer's cache folder, recorded first.
process.env.HOSTING_TOOL_CACHE ??= toolCache();
process.env.HOSTING_CACHE_DIR ??= join(__dirname, "..", ".work", "cache");

/** Runs the 'exit' listeners registered after this one, then leaves without heap teardown. */
function exitWithoutTeardown(code) {
  const listeners = process.listeners("exit");
  for (const listener of listeners.slice(listeners.indexOf(exitWithoutTeardown) + 1)) {
    listener.call(process, code);
  }
  process.reallyExit(code);
}

// Only in jest-worker children (forked with an IPC channel), once per process.
const inWorker = typeof process.send === "function" && process.env.JEST_WORKER_ID !== undefined;
if (inWorker && !process.listeners("exit").includes(exitWithoutTeardown)) {
  process.on("exit", exitWithoutTeardown);
}

module.exports = TestEnvironment;

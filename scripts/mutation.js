#!/usr/bin/env node
/*
 * Mutation testing of the safety-critical modules: `npm run mutation [-- name ...]`.
 *
 * Stryker runs once per module, against only the test files that reach it (the table below), and
 * a score table is printed at the end. Not part of `npm test`: all modules take most of an hour
 * on two cores. Scores count mutants that fail type-checking as left out and timeouts as detected.
 *
 * Modules marked `host` run inside Pulumi's provider host, a child process that loads `dist/`.
 * For them Stryker builds `dist/` from the instrumented source in its sandbox (buildCommand), and
 * coverage analysis is off (the child reports none): every mutant runs the listed tests. The
 * child picks the active mutant from `__STRYKER_ACTIVE_MUTANT__`, which the jest runner sets in
 * the test process and the harness passes on (test/helpers/provider-host.js spreads process.env).
 *
 * Options: MUTATION_CONCURRENCY (default 1), MUTATION_REPORT_DIR (default reports/mutation),
 * MUTATION_TESTS (test files instead of the module's list).
 */
const { mkdirSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

/** Module → the test files that reach it. Keep new tests of a module in its list. */
const MODULES = {
  retry: {
    mutate: "src/api/retry.ts",
    tests: [
      "test/api/retry.test.ts",
      "test/api/retry-policy.test.ts",
      "test/api/retry-wait.test.ts",
      "test/api/retry-decisions.test.ts",
      "test/api/lost-reply.test.ts",
      "test/api/limiter-decisions.test.ts",
      "test/api/wait-deadlines.test.ts",
      "test/api/errors.test.ts",
      "test/api/upload-faults.test.ts",
      "test/api/endless-reply.test.ts",
    ],
  },
  dotenv: {
    mutate: "src/api/dotenv.ts",
    tests: ["test/api/dotenv.test.ts", "test/api/dotenv-limits.test.ts"],
  },
  path: {
    mutate: "src/api/path.ts",
    tests: [
      "test/api/arguments.test.ts",
      "test/api/security.test.ts",
      "test/api/path-params.test.ts",
    ],
  },
  "rate-limit-headers": {
    mutate: "src/api/rate-limit-headers.ts",
    tests: [
      "test/api/retry.test.ts",
      "test/api/limiter-decisions.test.ts",
      "test/api/rate-limit-spellings.test.ts",
      "test/api/rate-limit-edges.test.ts",
      "test/api/wait-deadlines.test.ts",
      "test/api/errors.test.ts",
    ],
  },
  "lost-reply": {
    mutate: "src/api/lost-reply.ts",
    tests: [
      "test/api/lost-reply-facts.test.ts",
      "test/api/lost-reply.test.ts",
      "test/api/retry-decisions.test.ts",
      "test/api/upload-faults.test.ts",
      "test/api/endless-reply.test.ts",
    ],
  },
  scrub: {
    mutate: "src/api/scrub.ts",
    tests: [
      "test/api/scrub.test.ts",
      "test/api/token-scrub.test.ts",
      "test/api/scrub-nested.test.ts",
      "test/api/scrub-encodings.test.ts",
      "test/api/scrub-breaks.test.ts",
      "test/api/scrub-shared.test.ts",
    ],
  },
  "resource-handler": {
    // Equivalent survivors: `h.notCompared ?? []` and `h.platformDefaults ?? []` (twice) made
    // `["Stryker was here"]` (no input has that name); `news[k] === UNKNOWN ||` made `false ||`
    // (state never holds the unknown marker, so comparing with it already says "changed").
    mutate: "src/provider/resource-handler.ts",
    tests: [
      "test/provider/check.test.ts",
      "test/provider/app.test.ts",
      "test/provider/check-and-diff.test.ts",
      "test/provider/lifecycle-errors.test.ts",
    ],
  },
  "source-walk": {
    mutate: "src/provider/app/folder-walk.ts",
    tests: [
      "test/provider/source-walk.test.ts",
      "test/provider/source-hash.test.ts",
      "test/provider/packaging.test.ts",
    ],
  },
  "source-names": {
    mutate: "src/provider/app/source-names.ts",
    tests: ["test/provider/source-walk.test.ts"],
  },
  "source-hash": {
    // Equivalent survivors (work, not results): `if (failure) return` made `false` (workers
    // finish hashing after a failure, which is still thrown); `found`'s body made `{}` and
    // `!found.seen.has(f)` made `true` (files hashed after the walk, or twice: same hashes).
    mutate: "src/provider/app/source-hash.ts",
    tests: [
      "test/provider/source-hash.test.ts",
      "test/provider/source-walk.test.ts",
      "test/provider/packaging.test.ts",
      // The digests kept with a walk (walkDigests) and what they save in the index.
      "test/provider/walk-memo.test.ts",
      "test/provider/walk-memo-attack.test.ts",
      "test/provider/source-index.test.ts",
    ],
  },
  "create-app": {
    // Equivalent survivors: `fresh.length > 1` made `>= 1` (one candidate returned just above);
    // `clock.now() + SECOND_LOOK_MS >= giveUpAt` made `>` (they differ only at one millisecond).
    mutate: "src/provider/app/create-app.ts",
    tests: [
      "test/provider/app-state.test.ts",
      "test/provider/create-recovery-adversarial.test.ts",
      "test/provider/app.test.ts",
    ],
  },
  "source-index": {
    // Equivalent survivors: FORMAT made "" (written and compared alike); the file name's
    // `.slice(0, 32)` dropped (a longer name, used alike); the racy `<` made `<=` and
    // `size <= MAX_INDEX_BYTES` made `<` (they differ at one millisecond, at one byte);
    // `clearTimeout(timer)` dropped (an unref'd timer resolving a race already settled);
    // `uid === undefined ||` made `false ||` (undefined on Windows only); the lstat's
    // `!readable(...)` made `false` (fstat refuses the same; the lstat spares a device the
    // open) and the fstat's (it refuses only a file swapped in between the two looks).
    mutate: "src/provider/app/source-index.ts",
    tests: ["test/provider/source-index.test.ts", "test/provider/source-index-file.test.ts"],
  },
  "walk-memo": {
    // A kept walk answers only while every stamp it saw is unchanged (walk-memo.test.ts makes
    // each change a user can make, walk-memo-attack.test.ts links and pipes); the property test
    // of source-index.test.ts hashes in this process first after each random edit, with the walk
    // kept from before it. Equivalent survivors: the event-loop turn between
    // stat batches (`i > 0`, `<=` in the loop, the batch's slice: the same stats, in one go),
    // `>=` made `>` at the racy edge (one millisecond). Measured: 75.8 % before the last test
    // (a racy file among settled ones) was added, which kills the one real survivor.
    mutate: "src/provider/app/walk-memo.ts",
    tests: [
      "test/provider/walk-memo.test.ts",
      "test/provider/walk-memo-attack.test.ts",
      "test/provider/source-index.test.ts",
    ],
  },
  "create-key": {
    // Reached in this process by the in-process provider; interrupted-create.test.ts reaches it
    // only in the provider host's child, which reports no coverage (it would need `host`).
    // No equivalent survivor: the key's text is pinned (it must not change between releases).
    mutate: "src/provider/app/create-key.ts",
    tests: ["test/provider/create-key.test.ts"],
  },
  // Whose object it is: whose account a resource records, how its object is reached, and which
  // app name a create generates (two stacks of one program must never meet).
  owner: {
    mutate: "src/connection/owner.ts",
    tests: [
      "test/connection/owner.test.ts",
      "test/provider/whose-app.test.ts",
      "test/provider/check-and-diff.test.ts",
    ],
  },
  ownership: {
    mutate: "src/provider/ownership.ts",
    tests: ["test/provider/ownership.test.ts", "test/provider/whose-app.test.ts"],
  },
  "created-shape": {
    mutate: "src/provider/app/created-shape.ts",
    tests: [
      "test/provider/created-shape.test.ts",
      "test/provider/create-recovery-adversarial.test.ts",
    ],
  },
  "auto-name": {
    mutate: "src/provider/app/auto-name.ts",
    tests: [
      "test/provider/auto-name.test.ts",
      "test/provider/create-recovery-adversarial.test.ts",
      "test/provider/whose-app.test.ts",
    ],
  },
};

/** `name` or `name:44-44,118-128` (only mutants on those lines, e.g. to check one fix). */
function parseArg(arg) {
  const [name, lines] = arg.split(":");
  return { name, lines: lines ? lines.split(",") : [] };
}

function optionsFor(name, { mutate, tests, host }, lines = []) {
  const { existsSync } = require("node:fs");
  // MUTATION_TESTS (comma-separated files) replaces the list: a quick check of one test file.
  const chosen = process.env.MUTATION_TESTS ? process.env.MUTATION_TESTS.split(",") : tests;
  const present = chosen.filter((t) => existsSync(t));
  return {
    mutate: lines.length > 0 ? lines.map((l) => `${mutate}:${l}`) : [mutate],
    testRunner: "jest",
    jest: {
      projectType: "custom",
      configFile: "jest.config.js",
      config: {
        testMatch: present.map((t) => `<rootDir>/${t}`),
        // Stryker wraps the environment and resolves it from the sandbox, without `<rootDir>`.
        testEnvironment: "./test/helpers/worker-environment.js",
      },
      enableFindRelatedTests: false,
    },
    checkers: ["typescript"],
    tsconfigFile: "tsconfig.build.json",
    typescriptChecker: { prioritizePerformanceOverAccuracy: true },
    coverageAnalysis: host ? "off" : "perTest",
    // The child process must run the instrumented code: build dist/ from it, once per sandbox
    // (with the build stamp, so jest's globalSetup finds it fresh and builds no second time).
    buildCommand: host ? "node scripts/build.js" : undefined,
    ignorePatterns: [
      "dist",
      "docs",
      "coverage",
      "reports",
      "test/.work/**",
      ".demo",
      ".stryker-tmp",
    ],
    concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
    timeoutMS: 60_000,
    reporters: ["json", "clear-text", "progress-append-only"],
    jsonReporter: {
      fileName: join(reportDir(), `${name}${lines.length > 0 ? "-lines" : ""}.json`),
    },
    tempDirName: `.stryker-tmp/${name}`,
    cleanTempDir: true,
    incremental: false,
    logLevel: "info",
  };
}

const reportDir = () => process.env.MUTATION_REPORT_DIR ?? join("reports", "mutation");

/** Detected over valid: killed and timed-out count as detected; type errors are left out. */
function score(results) {
  const count = (s) => results.filter((r) => r.status === s).length;
  const c = {
    killed: count("Killed"),
    survived: count("Survived"),
    timeout: count("Timeout"),
    noCoverage: count("NoCoverage"),
    compileError: count("CompileError"),
    runtimeError: count("RuntimeError"),
  };
  const valid = c.killed + c.survived + c.timeout + c.noCoverage + c.runtimeError;
  c.score = valid === 0 ? NaN : (100 * (c.killed + c.timeout + c.runtimeError)) / valid;
  return c;
}

async function main() {
  const args = process.argv.slice(2).map(parseArg);
  const unknown = args.map((a) => a.name).filter((n) => !(n in MODULES));
  if (unknown.length > 0) {
    console.error(
      `unknown module ${unknown.join(", ")}; known: ${Object.keys(MODULES).join(", ")}`,
    );
    process.exit(2);
  }
  const { Stryker } = await import("@stryker-mutator/core");
  mkdirSync(reportDir(), { recursive: true });
  const rows = [];
  const todo = args.length > 0 ? args : Object.keys(MODULES).map((name) => ({ name, lines: [] }));
  for (const { name, lines } of todo) {
    const started = Date.now();
    const options = optionsFor(name, MODULES[name], lines);
    const results = await new Stryker(options).runMutationTest();
    const c = {
      module: lines.length > 0 ? `${name}:${lines.join(",")}` : name,
      ...score(results),
      seconds: Math.round((Date.now() - started) / 1000),
    };
    rows.push(c);
    const survivors = results
      .filter((r) => r.status === "Survived" || r.status === "NoCoverage")
      .map(
        (r) =>
          `${r.status} ${r.location.start.line}:${r.location.start.column} ${r.mutatorName}: ${r.replacement ?? ""}`,
      );
    writeFileSync(
      join(reportDir(), `${name}${lines.length > 0 ? "-lines" : ""}.summary.json`),
      JSON.stringify({ ...c, survivors }, null, 2),
    );
  }
  console.log(
    "\nmodule               score   killed/survived/timeout/no-coverage  (type errors)  time",
  );
  for (const r of rows) {
    console.log(
      `${r.module.padEnd(20)} ${r.score.toFixed(1).padStart(5)}%  ` +
        `${r.killed}/${r.survived}/${r.timeout}/${r.noCoverage}`.padEnd(37) +
        `(${r.compileError})`.padEnd(15) +
        `${r.seconds}s`,
    );
  }
  if (rows.some((r) => r.score < 85)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

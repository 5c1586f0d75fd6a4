// Where one jest run keeps its temporary folders, so that `npm test` leaves nothing behind in the
// system's temp folder (it left ~270 folders and ~100 MB there on every run: the tests' sources
// and zips, the emulator's uploads, the provider's packed archives of hosts the tests kill, the
// language host's pipes) and test/.work stops growing by the programs it copies.
//
// Jest's globalSetup points TMPDIR at a folder of the run's own: every os.tmpdir() in the workers
// and in what they start (the emulator, provider hosts, Pulumi's CLI) goes there, and
// globalTeardown removes it. The programs copied under test/.work go into a run folder too, kept
// after the run for a look at what a failing engine test left; the next run removes the folders
// of runs whose process is gone (a run cut short leaves both kinds).
const { mkdirSync, mkdtempSync, readdirSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { alive } = require("../../scripts/dir-lock");

const ROOT = join(__dirname, "..", "..");
const PREFIX = "pulumi-hosting-tests-";
const WORK_RUNS = join(ROOT, "test", ".work", "runs");

/** Removes the folders `<prefix><pid>-…` in `parent` whose run has ended. */
function sweep(parent, prefix) {
  let names;
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  const owner = new RegExp(`^${prefix}(\\d+)-`);
  for (const name of names) {
    const pid = Number(owner.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) {
      rmSync(join(parent, name), { recursive: true, force: true });
    }
  }
}

/** globalSetup's part: the run's folders, and TMPDIR and TEST_RUN_WORK_DIR pointing at them. */
function startRun() {
  const systemTmp = tmpdir();
  sweep(systemTmp, PREFIX);
  sweep(WORK_RUNS, "");
  const tmp = mkdtempSync(join(systemTmp, `${PREFIX}${process.pid}-`));
  mkdirSync(WORK_RUNS, { recursive: true });
  const work = mkdtempSync(join(WORK_RUNS, `${process.pid}-`));
  process.env.TMPDIR = tmp;
  process.env.TEST_RUN_WORK_DIR = work;
}

/** globalTeardown's part: the run's temp folder goes (its programs under test/.work stay). */
function endRun() {
  const tmp = process.env.TMPDIR;
  if (tmp && tmp.includes(PREFIX)) rmSync(tmp, { recursive: true, force: true });
}

/** Where a test copies programs: the run's folder under test/.work (when jest made one). */
function workDir() {
  return process.env.TEST_RUN_WORK_DIR ?? join(ROOT, "test", ".work");
}

module.exports = { startRun, endRun, workDir };

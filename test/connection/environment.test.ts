import { homedir } from "node:os";
import { join } from "node:path";
import {
  cacheDirectory,
  listCacheMs,
  progressIntervalMs,
  readEnvironment,
  sourceIndexOff,
} from "../../src/connection/environment";

/* The one place that reads the environment: what each variable does, unset or malformed. */

const NAMES = [
  "HOSTING_TEST_ONLY",
  "HOSTING_LIST_CACHE_MS",
  "HOSTING_CACHE_DIR",
  "XDG_CACHE_HOME",
  "HOSTING_SOURCE_INDEX",
  "HOSTING_PROGRESS_SECONDS",
];
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
afterEach(() => {
  for (const n of NAMES) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
});

test("readEnvironment keeps only HOSTING_* variables, as a copy later changes do not reach", () => {
  process.env.HOSTING_TEST_ONLY = "a";
  const env = readEnvironment();
  process.env.HOSTING_TEST_ONLY = "b";
  expect(env.HOSTING_TEST_ONLY).toBe("a");
  expect(Object.keys(env).every((k) => k.startsWith("HOSTING_"))).toBe(true);
  expect(Object.isFrozen(env)).toBe(true);
});

test.each([
  [undefined, 1000],
  ["0", 0],
  ["250", 250],
  ["-1", 1000],
  ["soon", 1000],
])("HOSTING_LIST_CACHE_MS=%j serves a list of apps for %j ms", (value, ms) => {
  if (value === undefined) delete process.env.HOSTING_LIST_CACHE_MS;
  else process.env.HOSTING_LIST_CACHE_MS = value;
  expect(listCacheMs(1000)).toBe(ms);
});

test("the cache folder: HOSTING_CACHE_DIR, else XDG_CACHE_HOME's, else ~/.cache's", () => {
  process.env.HOSTING_CACHE_DIR = "/tmp/hosting-cache";
  process.env.XDG_CACHE_HOME = "/tmp/xdg";
  expect(cacheDirectory()).toBe("/tmp/hosting-cache");
  delete process.env.HOSTING_CACHE_DIR;
  expect(cacheDirectory()).toBe(join("/tmp/xdg", "pulumi-hosting"));
  delete process.env.XDG_CACHE_HOME;
  expect(cacheDirectory()).toBe(join(homedir(), ".cache", "pulumi-hosting"));
});

test("only HOSTING_SOURCE_INDEX=off turns the source index off", () => {
  delete process.env.HOSTING_SOURCE_INDEX;
  expect(sourceIndexOff()).toBe(false);
  process.env.HOSTING_SOURCE_INDEX = "0";
  expect(sourceIndexOff()).toBe(false);
  process.env.HOSTING_SOURCE_INDEX = "off";
  expect(sourceIndexOff()).toBe(true);
});

test("each reader reads when called: a change reaches the next call", () => {
  process.env.HOSTING_PROGRESS_SECONDS = "3";
  expect(progressIntervalMs()).toBe(3000);
  process.env.HOSTING_PROGRESS_SECONDS = "4";
  expect(progressIntervalMs()).toBe(4000);
});

import { spawnSync } from "node:child_process";
import { parse } from "dotenv";
import fc from "fast-check";
import { formatDotenv, parseDotenv } from "../../src/api";
import { dotenvProblem } from "../../src/api/dotenv";
import { testIf } from "../helpers/test-if";

/*
 * The env text is read back by real parsers: npm `dotenv` always (the emulator's reader), and
 * python-dotenv when python3 can import it (e.g. PYTHONPATH=<python-dotenv checkout>/src).
 */

const tricky = ["$", '"', "'", "\\", "#", "=", " ", "\n", "\r", "\t", "`", "{", "}", ":", "-"];
const other = ["a", "Z", "0", "_", "é", "日本", "😀", "\u2028", "\u00a0"];
const key = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,6}$/);
const value = fc.oneof(
  fc.string({ unit: fc.constantFrom(...tricky, ...other), maxLength: 24 }),
  fc.string({ unit: "binary", maxLength: 12 }),
);
const envs = fc.dictionary(key, value, { maxKeys: 6 });
const RUNS = { seed: 20261122, numRuns: 3000 };

/** Splits an env into what formatDotenv can write and what it must refuse. */
function split(env: Record<string, string>) {
  const entries = Object.entries(env);
  const ok = Object.fromEntries(entries.filter(([k, v]) => !dotenvProblem(k, v)));
  const refused = entries.filter(([k, v]) => dotenvProblem(k, v));
  return { ok, refused };
}

describe("env as dotenv text", () => {
  test("npm dotenv reads back every value we write, exactly (property test)", () => {
    let written = 0;
    let refused = 0;
    fc.assert(
      fc.property(envs, (env) => {
        const s = split(env);
        written += Object.keys(s.ok).length;
        refused += s.refused.length;
        expect({ ...parse(formatDotenv(s.ok)) }).toEqual(s.ok);
        for (const [k, v] of s.refused) {
          expect(() => formatDotenv({ [k]: v })).toThrow(
            expect.objectContaining({ property: `env.${k}` }),
          );
        }
      }),
      RUNS,
    );
    // The generator is aimed at the hard characters; most values must still be writable.
    expect(written).toBeGreaterThan(refused * 3);
  });

  test("the characters users put in secrets come through: $ \" ' \\ # = spaces newlines non-ASCII", () => {
    const env = {
      A_DOLLAR: "pa$$word$HOME",
      B_QUOTES: `say "hi" it's`,
      C_BACKSLASH: "C:\\Users\\x",
      D_HASH_EQ: "a=b #not a comment",
      E_SPACES: "  padded  ",
      F_LINES: "line1\nline2\r\nline3",
      G_UNICODE: "naïve 日本語 😀",
      H_EMPTY: "",
      I_PEM: "-----BEGIN KEY-----\nMIIB+/=\n-----END KEY-----\n",
      J_ESCAPES_LOOKALIKE: "\\n is not a newline",
      K_JSON: '{"a":[1,"x"]}',
    };
    expect(Object.entries(env).filter(([k, v]) => dotenvProblem(k, v))).toEqual([]);
    const text = formatDotenv(env);
    expect({ ...parse(text) }).toEqual(env);
    expect(parseDotenv(text)).toEqual(env);
  });

  test("what cannot be represented is refused naming the key and the reason", () => {
    const cases: Array<[string, string, RegExp]> = [
      ["TPL", "x${HOME}y", /python-dotenv replaces/],
      ["NUL", "a\u0000b", /NUL/],
      ["MIX", `it's "x" #1`, /contains ', " and # together, which no dotenv quoting carries/],
      ["__proto__", "x", /__proto__ is refused/],
      ["1BAD", "x", /not a valid variable name/],
    ];
    for (const [k, v, why] of cases) {
      expect(dotenvProblem(k, v)).toMatch(why);
      expect(() => formatDotenv({ [k]: v })).toThrow(why);
    }
  });

  test("the text is sorted by key, so equal envs give equal bodies", () => {
    expect(formatDotenv({ Z: "1", A: "2" })).toBe("A=2\nZ=1");
  });

  test("env past the size limit is refused before any request", () => {
    expect(() => formatDotenv({ BIG: "x".repeat(70 * 1024) })).toThrow(/over the limit of 65536/);
  });
});

const python = spawnSync("python3", ["-c", "import dotenv"], { encoding: "utf8" });
const withPython = testIf(python.status === 0, "python3 cannot import dotenv");
withPython("python-dotenv reads back the same values", () => {
  const samples = fc.sample(envs, { seed: RUNS.seed, numRuns: 500 }).map((e) => split(e).ok);
  const script =
    "import sys, json, io\nfrom dotenv import dotenv_values\n" +
    "texts = json.load(sys.stdin)\n" +
    "print(json.dumps([dict(dotenv_values(stream=io.StringIO(t))) for t in texts]))\n";
  const r = spawnSync("python3", ["-c", script], {
    input: JSON.stringify(samples.map(formatDotenv)),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(r.stderr).toBe("");
  expect(JSON.parse(r.stdout)).toEqual(samples);
});

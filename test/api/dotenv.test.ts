import { formatDotenv, parseDotenv } from "../../src/api";

describe("env as dotenv text", () => {
  test("round-trips values with spaces, quotes, newlines, $ and = signs, sorted by key", () => {
    const env = { Z: "plain", A: 'say "hi"\nbye', B: "x=$HOME y", C: "" };
    const text = formatDotenv(env);
    expect(text.split("\n")[0]).toMatch(/^A=/);
    expect(parseDotenv(text)).toEqual(env);
  });
  test("reads comments, blank lines and single quotes", () => {
    expect(parseDotenv("# c\n\nA='x y'\nB=1\n")).toEqual({ A: "x y", B: "1" });
  });
});

import { formatDotenv } from "../../src/api";
import { checkDotenvText, dotenvProblem } from "../../src/api/dotenv";

/*
 * What a user reads when env cannot be written, word for word, and the exact edges: the size
 * limit to the byte, each quoting form chosen for the value, python-dotenv's `${...}` with a
 * default of any length.
 */

const refusal = (key: string, value: string) => {
  try {
    formatDotenv({ [key]: value });
  } catch (e) {
    return { property: (e as { property?: string }).property, message: (e as Error).message };
  }
  throw new Error("expected a refusal");
};

const NO_QUOTING =
  "together, which no dotenv quoting carries so that npm dotenv and python-dotenv both read it " +
  "back; change the value";

describe("values that cannot be written, in the user's words", () => {
  test("NUL", () => {
    expect(refusal("SECRET", "a\u0000b")).toStrictEqual({
      property: "env.SECRET",
      message: "env value of SECRET contains a NUL character; change the value",
    });
  });

  test.each([
    ["x${HOME}y", "${HOME}"],
    ["x${HOME:-/home/someone}y", "${HOME:-/home/someone}"],
    ["${A:-}", "${A:-}"],
    ["${}", "${}"],
  ])("python-dotenv's expansion in %j is named whole", (value, shown) => {
    expect(refusal("SECRET", value)).toStrictEqual({
      property: "env.SECRET",
      message: `env value of SECRET contains ${JSON.stringify(shown)}, which python-dotenv replaces with a variable; change the value`,
    });
  });

  test("a `$` without braces, or braces without `$`, is an ordinary character", () => {
    const env = { A: "$HOME", B: "{HOME}", C: "$ {HOME}" };
    expect(Object.keys(env).map((k) => dotenvProblem(k, env[k as keyof typeof env]))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  test.each([
    ['a\r"b\r', 'a carriage return, " and a line break'],
    ['a\\\\b"#', 'a \\\\ pair, " and #'],
    ['"x #\\', 'a trailing \\, " and a quote at the start'],
    ["'a\"#", "', \" and a quote at the start"],
    ['it\'s "\u0001"', "', \" and a control character"],
    ['it\'s "\u009f"', "', \" and a control character"],
    [' it\'s "x"', "', \" and a space at the start or end"],
    ['it\'s "x" ', "', \" and a space at the start or end"],
    ["it's \\ #", "', \\ and #"],
  ])("%j names each reason", (value, reasons) => {
    expect(refusal("V", value)).toStrictEqual({
      property: "env.V",
      message: `env value of V contains ${reasons} ${NO_QUOTING}`,
    });
  });

  test("keys: a bad name, __proto__, a value that is not text", () => {
    expect(dotenvProblem("1BAD", "x")).toBe(
      'env key "1BAD" is not a valid variable name: use letters, digits and _ and do not start with a digit',
    );
    expect(dotenvProblem("__proto__", "x")).toBe(
      "env key __proto__ is refused: parsers read it into an object's prototype and lose it; rename the variable",
    );
    expect(dotenvProblem("N", 5)).toBe("env value of N must be a string");
    expect(dotenvProblem("_ok9", "x")).toBeUndefined();
    // The whole key is a name, not only its start.
    for (const key of ["A-B", "A B", "A=B", "A\n"]) {
      expect(dotenvProblem(key, "x")).toBe(
        `env key ${JSON.stringify(key)} is not a valid variable name: use letters, digits and _ and do not start with a digit`,
      );
    }
  });
});

describe("each value in the first form that fits it", () => {
  test.each([
    ["letters and the plain punctuation", "a-Z_0.9/x:y@z+w,v", "K=a-Z_0.9/x:y@z+w,v"],
    ["a space", "a b", "K='a b'"],
    ["a tab (single quotes keep it as it is)", "a\tb", "K='a\tb'"],
    ["a trailing space", "ab ", "K='ab '"],
    ["a quote and a newline", "it's\nx", 'K="it\'s\\nx"'],
    ["a quote and a carriage return", "it's\rx", 'K="it\'s\\rx"'],
    ["a quote and a backslash, bare", "it's a\\b", "K=it's a\\b"],
    ["a backslash that neither pairs nor ends it", "C:\\dir #1", "K='C:\\dir #1'"],
    ["empty", "", "K=''"],
  ])("%s", (_name, value, line) => {
    expect(formatDotenv({ K: value })).toBe(line);
  });
});

describe("the 64 KiB limit, to the byte", () => {
  const tooLarge = (bytes: number) =>
    `env is ${bytes} bytes as dotenv text, over the limit of 65536; move large values into the app's source or a file it downloads`;

  test("65536 bytes of text pass; 65537 are refused naming env", () => {
    // "A=" is 2 bytes.
    expect(formatDotenv({ A: "x".repeat(65534) })).toHaveLength(65536);
    expect(() => formatDotenv({ A: "x".repeat(65535) })).toThrow(
      expect.objectContaining({ property: "env", message: tooLarge(65537) }),
    );
  });

  test("the limit counts UTF-8 bytes, not characters", () => {
    // 'é' is 2 bytes: 4 + 2 * 32766 = 65536 bytes in 32770 characters.
    expect(() => formatDotenv({ A: "é".repeat(32766) })).not.toThrow();
    expect(() => formatDotenv({ A: "é".repeat(32767) })).toThrow(
      expect.objectContaining({ property: "env", message: tooLarge(65538) }),
    );
  });

  test("dotenv text given as it is: the same limit and the same value rules", () => {
    const exact = `A=${"x".repeat(65534)}`;
    expect(checkDotenvText(exact)).toBe(exact);
    expect(() => checkDotenvText(`${exact}y`)).toThrow(
      expect.objectContaining({ property: "env", message: tooLarge(65537) }),
    );
    expect(() => checkDotenvText("A=1\nB=${HOME}\n")).toThrow(
      expect.objectContaining({
        property: "env.B",
        message:
          'env value of B contains "${HOME}", which python-dotenv replaces with a variable; change the value',
      }),
    );
    expect(checkDotenvText("A=1\nB='x y'\n")).toBe("A=1\nB='x y'\n");
  });
});

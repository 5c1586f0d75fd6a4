import { z } from "zod";
import { HostingInputError } from "../../src/api";
import { parseArgs, UNKNOWN, validateInputs } from "../../src/inputs/validate";

/* Input checks that name the property to fix, before any request. */

const schema = z.strictObject({
  name: z.string().min(1),
  ram: z.number().int().positive(),
  env: z.record(z.string(), z.string()).optional(),
});

describe("validateInputs (resources' check)", () => {
  test("valid inputs come back normalised, without __provider", () => {
    expect(validateInputs(schema, { __provider: "p", name: "web", ram: 512 })).toEqual({
      inputs: { name: "web", ram: 512 },
      failures: [],
    });
  });

  test("each failure names its property, nested ones by path", () => {
    const { failures, inputs } = validateInputs(schema, {
      name: "",
      ram: 1.5,
      env: { OK: "1", BAD: 2 },
    });
    expect(failures.map((f) => f.property)).toEqual(["name", "ram", "env.BAD"]);
    expect(failures.every((f) => f.reason.length > 0)).toBe(true);
    expect(inputs).toEqual({ name: "", ram: 1.5, env: { OK: "1", BAD: 2 } });
  });

  test("a value still unknown in preview is not checked and stays unknown", () => {
    expect(validateInputs(schema, { name: UNKNOWN, ram: 256 })).toEqual({
      inputs: { name: UNKNOWN, ram: 256 },
      failures: [],
    });
    // Only the known ones are checked.
    expect(validateInputs(schema, { name: UNKNOWN, ram: -1 }).failures).toEqual([
      { property: "ram", reason: expect.any(String) },
    ]);
  });

  test("a failure of the inputs as a whole (a property the resource does not have) says so", () => {
    const { failures } = validateInputs(schema, { name: "web", ram: 512, rma: 1 });
    expect(failures).toEqual([{ property: "(inputs)", reason: expect.stringContaining("rma") }]);
  });
});

describe("parseArgs (data sources)", () => {
  test("valid arguments are returned; none at all count as {}", () => {
    const args = z.strictObject({ minutes: z.number().optional() });
    expect(parseArgs("getAppMetrics", args, { minutes: 5 })).toEqual({ minutes: 5 });
    expect(parseArgs("getAppMetrics", args, undefined)).toEqual({});
  });

  test("a bad argument is a HostingInputError naming the function and the argument", () => {
    const args = z.strictObject({ appId: z.string() });
    const err = (() => {
      try {
        parseArgs("getApp", args, { appId: 7 });
      } catch (e) {
        return e as HostingInputError;
      }
    })();
    expect(err).toBeInstanceOf(HostingInputError);
    expect(err?.property).toBe("appId");
    expect(err?.message).toMatch(/^getApp: appId: /);
  });

  test("a failure of the arguments as a whole names them as such", () => {
    const args = z.strictObject({ appId: z.string().optional() });
    expect(() => parseArgs("getApp", args, { appid: "a" })).toThrow(
      expect.objectContaining({
        property: "(arguments)",
        message: expect.stringMatching(/^getApp: \(arguments\): .*appid/),
      }),
    );
  });
});

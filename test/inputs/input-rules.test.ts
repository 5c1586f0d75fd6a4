import { z } from "zod";
import { HostingInputError } from "../../src/api";
import { idInput, textInput } from "../../src/inputs/input-rules";
import { parseArgs, validateInputs } from "../../src/inputs/validate";

/* The rules several inputs share: each message names the property and says what to do. */

const messageOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error.issues[0].message;
};

describe("idInput: an ID that goes into a request path", () => {
  const appId = idInput("appId", "pass app.id");

  test("an ordinary id passes", () => {
    expect(messageOf(appId, "3f2c9a")).toBeUndefined();
  });

  test("missing: the property is required, and the hint says what to pass", () => {
    expect(messageOf(appId, undefined)).toBe("appId is required: pass app.id");
  });

  test.each(["", ".", "..", "a/b", "a\\b", "a\nb"])(
    "%j is refused naming appId and the hint",
    (value) => {
      expect(messageOf(appId, value)).toMatch(/^appId .+: pass app\.id$/);
    },
  );
});

describe("textInput: a one-line text setting", () => {
  test("a control character is refused with its code and position", () => {
    expect(messageOf(textInput("entrypoint"), "main\tjs")).toBe(
      "entrypoint contains a control character (U+0009) at position 4; remove it (settings are one line of text)",
    );
  });

  test("over the limit: the message names the property and the limit", () => {
    expect(messageOf(textInput("description", { max: 5 }), "abcdef")).toBe(
      "description must be at most 5 characters (settings are size-limited)",
    );
  });

  test("empty and missing use the messages given, else name the property", () => {
    const s = textInput("name", { required: "name is required", empty: "name must not be empty" });
    expect(messageOf(s, undefined)).toBe("name is required");
    expect(messageOf(s, "")).toBe("name must not be empty");
    expect(messageOf(textInput("name"), 7)).toBe("name must be a string");
  });
});

describe("the rules through the checks resources and data sources run", () => {
  test("a resource's check reports the failing property by name", () => {
    const schema = z.strictObject({ appId: idInput("appId", "pass app.id") });
    expect(validateInputs(schema, { appId: ".." }).failures).toEqual([
      { property: "appId", reason: expect.stringMatching(/^appId .+: pass app\.id$/) },
    ]);
  });

  test("a data source throws a HostingInputError naming the function and the property", () => {
    const schema = z.strictObject({ vmId: idInput("vmId", "pass a VM id") });
    let thrown: unknown;
    try {
      parseArgs("startVm", schema, { vmId: "a/b" });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(HostingInputError);
    expect((thrown as HostingInputError).message).toMatch(/^startVm: vmId: vmId .+: pass a VM id$/);
  });
});

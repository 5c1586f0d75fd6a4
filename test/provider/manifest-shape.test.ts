import type { z } from "zod";
import { assertType, type SameShape } from "../../src/base";
import type { manifestSchema } from "../../src/emulator/manifest";
import type { Manifest } from "../../src/provider/app/manifest";

// Compile-time: a key or value type the App writes that the emulator would not read fails tsc.
test("the emulator reads the manifest the App writes: the same keys and value types", () => {
  expect(assertType<SameShape<z.output<typeof manifestSchema>, Manifest>>(true)).toBe(true);
});

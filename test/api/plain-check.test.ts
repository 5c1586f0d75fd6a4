import { z } from "zod";
import { plainCheck } from "../../src/api/plain-check";
import { parseBody } from "../../src/api/parse";
import { appListEntrySchema, databaseResponseSchema } from "../../src/api/schemas";

/*
 * The plain check must agree with zod: everything it accepts, zod accepts with the same result;
 * everything zod refuses, it refuses (and the error is then zod's).
 */
const list = z.array(appListEntrySchema);
const app = {
  id: "a1",
  user_id: "u",
  ram: 512,
  name: "web",
  is_app: true,
  blocked_until: null,
  setup: false,
  extra_field_from_a_newer_api: { x: 1 },
};
const info = { ram: [1, 2], vcpu: [0.5], storage: 3, network_receive: [], network_send: [1] };

test("valid bodies: the plain check says yes and the result equals zod's", () => {
  for (const body of [[], [{ app }], [{ app, project_info: info }], [{ app: { id: "x" } }]]) {
    expect(plainCheck(list)?.(body)).toBe(true);
    expect(parseBody("listApps", list, body)).toEqual(list.parse(body));
  }
});

test("invalid bodies: the plain check says no and zod's message names the field", () => {
  const bad: unknown[] = [
    {},
    [{ app: { ...app, ram: 1.5 } }],
    [{ app: { ...app, ram: "lots" } }],
    [{ app: { ...app, id: undefined } }],
    [{ app: { ...app, blocked_until: 5 } }],
    [{ app, project_info: { ...info, ram: [1, "2"] } }],
    [{ app, project_info: { ...info, storage: undefined } }],
    [null],
  ];
  for (const body of bad) {
    expect(plainCheck(list)?.(body)).toBe(false);
    expect(list.safeParse(body).success).toBe(false);
    expect(() => parseBody("listApps", list, body)).toThrow(/listApps/);
  }
  const db = { database: { id: "d", name: "n", service_type: "oracle" }, project_info: info };
  expect(plainCheck(databaseResponseSchema)?.({ ...db, replica_status: [] })).toBe(false);
});

test("schemas it cannot judge (refinements, strict or stripping objects) are left to zod", () => {
  expect(plainCheck(z.string().min(1))).toBeNull();
  expect(plainCheck(z.object({ a: z.string() }))).toBeNull();
  expect(plainCheck(z.strictObject({ a: z.string() }))).toBeNull();
  expect(plainCheck(z.looseObject({ a: z.string().default("x") }))).toBeNull();
});

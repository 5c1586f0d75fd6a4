import { ConflictError, UnprocessableEntityError } from "../../src/api";
import { refusalOf } from "../../src/api/refusals";
import { createApp } from "../../src/provider/app/create-app";
import { useEmulator } from "../helpers/emulator";
import { makeZip, manifest } from "../helpers/zip";

/*
 * The service refuses a setting after the upload (a runtime it does not offer, a manifest field
 * it will not take, a taken subdomain): the error names the property, with strict equality, and
 * says what to do; the client in its own words, the provider in the App's.
 */

const env = useEmulator({ setupDelayMs: 0 });

let seq = 0;
async function zipOf(settings: Record<string, unknown>) {
  const name = `refused-${++seq}`;
  const zip = await makeZip({
    "hosting.json": manifest({ name, entrypoint: "server.js", ...settings }),
    "server.js": "",
  });
  return { name, zip };
}

test("a runtime the service does not offer: the client names `runtime`, without Pulumi words", async () => {
  const { zip } = await zipOf({ runtime: { language: "node", version: "0.10" } });
  const err = (await env
    .client()
    .createApp({ archivePath: zip })
    .catch((e: unknown) => e)) as UnprocessableEntityError;
  expect(err).toBeInstanceOf(UnprocessableEntityError);
  expect(err.code).toBe("HOSTING_UNPROCESSABLE");
  expect(err.property).toBe("runtime");
  expect(err.message).toContain("listRuntimeVersions()");
  expect(err.message).not.toMatch(/pulumi|getRuntimeVersions|hosting:/i);
});

test("the App's create names the `runtime` input and points to the runtime data sources", async () => {
  const { name, zip } = await zipOf({ runtime: { language: "node", version: "0.10" } });
  const err = (await createApp(env.client(), { name }, zip).catch(
    (e: unknown) => e,
  )) as UnprocessableEntityError;
  expect(err).toBeInstanceOf(UnprocessableEntityError);
  expect(err.status).toBe(422);
  expect(err.property).toBe("runtime");
  expect(err.message).toContain("runtime node 0.10 is not available");
  expect(err.message).toMatch(/getRuntimeVersions\(\).*pickRuntimeVersion\(\)/);
});

test("a manifest field refused by name maps to the App's input (customCommand)", async () => {
  const { name, zip } = await zipOf({ custom_command: "" });
  const err = (await createApp(env.client(), { name }, zip).catch(
    (e: unknown) => e,
  )) as UnprocessableEntityError;
  expect(err).toBeInstanceOf(UnprocessableEntityError);
  expect(err.property).toBe("customCommand");
  expect(err.message).toContain("`customCommand`");
});

test("a taken subdomain names `subdomain`", async () => {
  const first = await zipOf({ subdomain: "taken-one" });
  await createApp(env.client(), { name: first.name, subdomain: "taken-one" }, first.zip);
  const second = await zipOf({ subdomain: "taken-one" });
  const err = (await createApp(
    env.client(),
    { name: second.name, subdomain: "taken-one" },
    second.zip,
  ).catch((e: unknown) => e)) as ConflictError;
  expect(err).toBeInstanceOf(ConflictError);
  expect(err.property).toBe("subdomain");
});

describe("the one table of the service's words", () => {
  test.each([
    ["runtime python 9 is not available", "runtime"],
    ["hosting.json: ram: Expected number, received string", "ram"],
    ["hosting.json: runtime.version: Required", "runtime"],
    ["hosting.json: custom_command: String must contain at least 1 character(s)", "custom_command"],
    ["subdomain shop is already taken", "subdomain"],
    ["project is not a zip archive", "archive"],
    ["app not found", undefined],
    ["minutes must be a whole number from 1 to 43200", undefined],
    ["POST /apps takes multipart/form-data with a project file and env", undefined],
  ])("%p is about %p", (words, property) => {
    expect(refusalOf(words)?.property).toBe(property);
  });

  test("errors without such words carry no property at all", async () => {
    env.emu.setFaults({ rules: [{ route: "GET /apps", status: 422, times: 1 }] });
    try {
      const err = (await env
        .client()
        .listApps()
        .catch((e: unknown) => e)) as UnprocessableEntityError;
      expect(err).toBeInstanceOf(UnprocessableEntityError);
      expect(err.property).toBe(undefined);
      // Not even as an undefined field: errors print only the fields that are set.
      expect(Object.keys(err)).not.toContain("property");
    } finally {
      env.emu.setFaults({});
    }
  });
});

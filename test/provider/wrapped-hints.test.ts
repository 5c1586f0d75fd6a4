import type * as pulumi from "@pulumi/pulumi";
import { ResourceInitError } from "../../src/provider/errors";
import { withProviderHint } from "../../src/connection/error-hints";
import { makeApiError } from "../../src/api/status-errors";
import { providerHandlers } from "../../src/provider/handlers";
import { newApp, useEmulator } from "../helpers/emulator";

/*
 * Errors the provider wraps (a read that quotes the dashboard's failure, a created resource
 * that failed to become ready) quote the client's error: its advice is replaced there too, so a
 * Pulumi user never reads the client's option names.
 */

const env = useEmulator({ setupDelayMs: 0 });

test("AppAnalytics read: a refused token on the dashboard names hosting:token, not the option", async () => {
  const client = env.client();
  const app = await newApp(
    client,
    "wrapped-hint",
    { entrypoint: "server.js" },
    { "server.js": "" },
  );
  await providerHandlers("AppAnalytics").configure({
    config: new Map([
      ["hosting:apiUrl", env.emu.url],
      ["hosting:token", env.emu.issueToken()],
    ]),
  } as unknown as pulumi.dynamic.ConfigureRequest);
  env.emu.setFaults({ rules: [{ route: "GET /apps/{app_id}/dashboard-data", status: 401 }] });
  try {
    const err = (await providerHandlers("AppAnalytics")
      .read(app.id, { appId: app.id, enabled: true })
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/could not read whether analytics is on .*failed with 401/);
    expect(err.message).toMatch(/check hosting:token: .*`pulumi config set --secret hosting:token/);
    expect(err.message).not.toMatch(/token option/);
  } finally {
    env.emu.setFaults({});
  }
});

test("a resource that failed to become ready: message and init reasons get the provider's words", () => {
  const inner = makeApiError("getApp", {
    status: 401,
    bodyMessage: "expired",
    method: "GET",
    path: "/apps/a",
  });
  const why = inner.message;
  const err = new ResourceInitError(
    `app a was created but waiting failed (${why})`,
    "a",
    {},
    [why],
    inner,
  );
  withProviderHint(err);
  for (const text of [err.message, ...err.reasons]) {
    expect(text).toMatch(/expired; check hosting:token: it must be a current API token/);
    expect(text).not.toMatch(/token option/);
  }
  expect(inner.message).toMatch(/check hosting:token/);
});

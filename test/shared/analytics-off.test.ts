import { BadRequestError, HostingInputError, NotFoundError } from "../../src/api";
import { isAnalyticsOff } from "../../src/shared";

/* The dashboard's "analytics is not enabled" refusal, which both getAppDashboard and AppAnalytics read. */

const details = (status: number, bodyMessage: string) => ({
  status,
  bodyMessage,
  method: "GET",
  path: "/apps/a1/dashboard",
});

test("a 400 that says analytics is not enabled is the refusal, in any case", () => {
  expect(isAnalyticsOff(new BadRequestError(details(400, "Analytics is not enabled")))).toBe(true);
});

test("another 400, another status or another error is not", () => {
  expect(isAnalyticsOff(new BadRequestError(details(400, "minutes must be at least 1")))).toBe(
    false,
  );
  expect(isAnalyticsOff(new NotFoundError(details(404, "analytics is not enabled")))).toBe(false);
  expect(isAnalyticsOff(new HostingInputError("appId", "analytics is not enabled"))).toBe(false);
  expect(isAnalyticsOff(new Error("analytics is not enabled"))).toBe(false);
});

import { wireAssumptions } from "./endpoints";
import { BadRequestError } from "./errors";

/** Whether an error is the dashboard's "analytics is not enabled" answer, and nothing else. */
export function isAnalyticsOff(err: unknown): err is BadRequestError {
  return BadRequestError.isInstance(err) && wireAssumptions.analyticsOffError.test(err.bodyMessage);
}

import { wireAssumptions, BadRequestError } from "../api/wire";

/** Whether an error is the dashboard's "analytics is not enabled" answer, and nothing else. */
export function isAnalyticsOff(err: unknown): err is BadRequestError {
  return err instanceof BadRequestError && wireAssumptions.analyticsOffError.test(err.bodyMessage);
}

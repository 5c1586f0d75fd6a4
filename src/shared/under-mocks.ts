import * as pulumi from "@pulumi/pulumi";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";

/** Whether the program runs under Pulumi's mocks (a user's unit tests). */
export function underMocks(): boolean {
  return pulumi.runtime.hasMonitor() && pulumi.runtime.getMonitor() instanceof MockMonitor;
}

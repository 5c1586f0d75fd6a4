/* eslint-disable @typescript-eslint/no-require-imports */
import * as path from "node:path";

/*
 * Modules of @pulumi/pulumi's own dependencies (gRPC, protobuf), loaded from where it loads
 * them: the plugin talks to the engine with the very objects its provider server uses.
 */

const pulumiDir = () => path.dirname(require.resolve("@pulumi/pulumi/package.json"));

/** A dependency of @pulumi/pulumi, as @pulumi/pulumi resolves it. */
export function fromPulumi<T>(id: string): T {
  return require(require.resolve(id, { paths: [pulumiDir()] })) as T;
}

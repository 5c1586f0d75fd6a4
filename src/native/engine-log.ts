import * as grpc from "@grpc/grpc-js";
import * as rpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/engine_pb";

/*
 * Lines for the user from the plugin, through the engine's Log call with the resource's URN, so
 * they show in that resource's diagnostics. A line the plugin printed on stderr did not show in
 * `pulumi import`'s output, so stderr is only the fallback when the engine cannot be reached (a
 * test host without one).
 */

// The server's own reading of its arguments (untyped: the module declares nothing).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseArgs } = require("@pulumi/pulumi/provider/internals") as {
  parseArgs(a: readonly string[]): { engineAddress: string } | undefined;
};

/** Says `message` as a warning of the resource `urn`. */
export type Tell = (urn: string, message: string) => Promise<void>;

/** How long one message may take to reach the engine. */
const LOG_DEADLINE_MS = 5000;

const toStderr: Tell = async (_urn, message) => {
  process.stderr.write(`${message}\n`);
};

/** A Tell through the engine whose address the plugin was started with (its first argument). */
export function engineLog(args: readonly string[]): Tell {
  const address = parseArgs(args)?.engineAddress;
  if (address === undefined) return toStderr;
  let client: rpc.EngineClient | undefined;
  return (urn, message) => {
    client ??= new rpc.EngineClient(address, grpc.credentials.createInsecure());
    const req = new proto.LogRequest();
    req.setSeverity(proto.LogSeverity.WARNING);
    req.setMessage(message);
    req.setUrn(urn);
    const deadline = { deadline: Date.now() + LOG_DEADLINE_MS };
    return new Promise<void>((resolve) => {
      client!.log(req, new grpc.Metadata(), deadline, (err) => {
        resolve(err ? toStderr(urn, message) : undefined);
      });
    });
  };
}

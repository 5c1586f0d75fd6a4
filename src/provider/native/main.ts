/* eslint-disable @typescript-eslint/no-require-imports */
import * as pulumiProvider from "@pulumi/pulumi/provider";
import { HostingProvider } from "./provider";

/*
 * The plugin's entry (scripts/plugin-bundle.js bundles it into plugin/pulumi-resource-hosting). `@pulumi/pulumi/provider`'s server answers
 * Configure without handing its values to the provider, and an explicit provider's arguments
 * arrive nowhere else (the engine sets PULUMI_CONFIG from the stack only). So the one Configure
 * handler of that server is wrapped, where the server is registered with gRPC.
 */

interface ConfigureCall {
  request: {
    getVariablesMap(): { entries(): Iterable<[string, string]> };
    getArgs(): { toJavaScript(): Record<string, unknown> } | undefined;
  };
}
type Handler = (call: ConfigureCall, callback: (err: unknown, res?: unknown) => void) => void;

/** Configure's values: the typed arguments when sent, else the `hosting:config:*` variables. */
function configureValues(call: ConfigureCall): Record<string, unknown> {
  const args = call.request.getArgs()?.toJavaScript() ?? {};
  if (Object.keys(args).length > 0) return args;
  return Object.fromEntries(call.request.getVariablesMap().entries());
}

function handToProvider(p: HostingProvider): void {
  // The gRPC module the server uses: the bundle holds one copy (scripts/plugin-bundle.js checks).
  const grpc = require("@grpc/grpc-js") as {
    Server: { prototype: { addService(service: unknown, impl: Record<string, unknown>): void } };
  };
  const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as {
    ResourceProviderService: unknown;
  };
  const proto = grpc.Server.prototype;
  const addService = proto.addService;
  proto.addService = function (service, impl) {
    if (service === provrpc.ResourceProviderService) {
      const configure = (impl.configure as Handler).bind(impl);
      impl.configure = ((call, callback) => {
        p.configureWith(configureValues(call));
        configure(call, callback);
      }) satisfies Handler;
    }
    addService.call(this, service, impl);
  };
}

/** Serves the provider: prints the port, then answers the engine until it is stopped. */
export async function main(args: string[]): Promise<void> {
  const { version } = require("../../../package.json") as { version: string };
  const p = new HostingProvider(version);
  handToProvider(p);
  await pulumiProvider.main(p, args);
}

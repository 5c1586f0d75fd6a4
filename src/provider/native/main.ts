/* eslint-disable @typescript-eslint/no-require-imports */
import * as path from "node:path";
import * as pulumiProvider from "@pulumi/pulumi/provider";
import { HostingProvider } from "./provider";

/*
 * The plugin's entry (plugin/index.js runs it). `@pulumi/pulumi/provider`'s server answers
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
interface CheckCall {
  request: {
    getUrn(): string;
    getAutonaming(): { getProposedName(): string; getMode(): 0 | 1 | 2 } | undefined;
  };
}
interface DiffConfigCall {
  request: {
    getOldInputs(): { toJavaScript(): Record<string, unknown> } | undefined;
    getOlds(): { toJavaScript(): Record<string, unknown> } | undefined;
    getNews(): { toJavaScript(): Record<string, unknown> } | undefined;
  };
}
type Callback = (err: unknown, res?: unknown) => void;
type Handler<C = ConfigureCall> = (call: C, callback: Callback) => void;

/** The engine's autonaming modes, by their number in CheckRequest.AutonamingOptions. */
const NAMING_MODES = ["propose", "enforce", "disable"] as const;

/** Configure's values: the typed arguments when sent, else the `hosting:config:*` variables. */
function configureValues(call: ConfigureCall): Record<string, unknown> {
  const args = call.request.getArgs()?.toJavaScript() ?? {};
  if (Object.keys(args).length > 0) return args;
  return Object.fromEntries(call.request.getVariablesMap().entries());
}

function handToProvider(p: HostingProvider): void {
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  // The gRPC module the server uses is @pulumi/pulumi's own.
  const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] })) as {
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
        // The engine then passes `pulumi:autonaming`'s proposal to check.
        configure(call, (err, res) => {
          (
            res as { setSupportsAutonamingConfiguration?(v: boolean): void } | undefined
          )?.setSupportsAutonamingConfiguration?.(true);
          callback(err, res);
        });
      }) satisfies Handler;
      const check = (impl.check as Handler<CheckCall>).bind(impl);
      impl.check = ((call, callback) => {
        const naming = call.request.getAutonaming();
        if (naming) {
          p.proposeName(call.request.getUrn(), {
            name: naming.getProposedName() || undefined,
            mode: NAMING_MODES[naming.getMode()] ?? "propose",
          });
        }
        check(call, callback);
      }) satisfies Handler<CheckCall>;
      // The server answers DiffConfig "not implemented": another account replaces instead.
      impl.diffConfig = ((call, callback) => {
        const r = call.request;
        const olds = (r.getOldInputs() ?? r.getOlds())?.toJavaScript() ?? {};
        const news = call.request.getNews()?.toJavaScript() ?? {};
        p.diffConfig(olds, news).then(
          (d) => callback(undefined, diffResponse(d)),
          (err: unknown) => callback(err),
        );
      }) satisfies Handler<DiffConfigCall>;
    }
    addService.call(this, service, impl);
  };
}

/** DiffConfig's answer in the protocol's message. */
function diffResponse(d: { replaces: string[] }): unknown {
  const proto = require("@pulumi/pulumi/proto/provider_pb") as {
    DiffResponse: new () => {
      setChanges(v: number): void;
      setReplacesList(v: string[]): void;
      setDeletebeforereplace(v: boolean): void;
    } & { constructor: { DiffChanges: { DIFF_NONE: number; DIFF_SOME: number } } };
  };
  const resp = new proto.DiffResponse();
  const changes = (proto.DiffResponse as unknown as { DiffChanges: Record<string, number> })
    .DiffChanges;
  resp.setChanges(d.replaces.length > 0 ? changes.DIFF_SOME : changes.DIFF_NONE);
  resp.setReplacesList(d.replaces);
  resp.setDeletebeforereplace(false);
  return resp;
}

/** Serves the provider: prints the port, then answers the engine until it is stopped. */
export async function main(args: string[]): Promise<void> {
  const { version } = require("../../../package.json") as { version: string };
  const p = new HostingProvider(version);
  handToProvider(p);
  await pulumiProvider.main(p, args);
}

/* eslint-disable @typescript-eslint/no-require-imports */
import * as pulumiProvider from "@pulumi/pulumi/provider";
import { version } from "../api/wire";
import { engineLog } from "./engine-log";
import { checkedConfig, HostingProvider } from "./provider";

/*
 * The plugin's entry (scripts/plugin-bundle.js bundles it into plugin/pulumi-resource-hosting). `@pulumi/pulumi/provider`'s server falls short
 * of the protocol in five places, so its handlers are wrapped where the server is registered
 * with gRPC:
 * - Configure does not hand its values to the provider, and an explicit provider's arguments
 *   arrive nowhere else (the engine sets PULUMI_CONFIG from the stack only);
 * - CheckConfig is not implemented: the engine then keeps a provider's inputs as the program
 *   sent them, and an SDK marks no nested secret (`accounts.<name>.token`);
 * - Read always answers with properties, and the engine takes only a missing bag, not an empty
 *   one, for "no such object" in an import;
 * - DiffConfig is not implemented: a provider whose account moves must replace its resources
 *   (the engine deletes the old ones through the old provider, which still reaches them);
 * - Configure does not say that the provider takes `pulumi:autonaming`'s proposals, and check
 *   does not hand them over.
 */

type Props = Record<string, unknown>;

// The gRPC module the server uses: the bundle holds one copy (scripts/plugin-bundle.js checks).
const grpc = require("@grpc/grpc-js") as {
  Server: { prototype: { addService(service: unknown, impl: Record<string, unknown>): void } };
};
const { Struct } = require("google-protobuf/google/protobuf/struct_pb") as {
  Struct: { fromJavaScript(o: Props): unknown };
};
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb") as {
  ResourceProviderService: unknown;
};
const provproto = require("@pulumi/pulumi/proto/provider_pb") as {
  CheckResponse: new () => { setInputs(s: unknown): void };
  DiffResponse: (new () => {
    setChanges(v: number): void;
    setReplacesList(v: string[]): void;
    setDeletebeforereplace(v: boolean): void;
  }) & { DiffChanges: Record<"DIFF_NONE" | "DIFF_SOME", number> };
};

type Callback = (err: unknown, res?: unknown) => void;
type Handler<Req> = (call: { request: Req }, callback: Callback) => void;

interface ConfigureRequest {
  getVariablesMap(): { entries(): Iterable<[string, string]> };
  getArgs(): { toJavaScript(): Props } | undefined;
}
interface CheckRequest {
  getNews(): { toJavaScript(): Props } | undefined;
}
interface ReadResponse {
  getId(): string;
  clearProperties(): void;
  clearInputs(): void;
}
interface NamingRequest {
  getUrn(): string;
  getAutonaming(): { getProposedName(): string; getMode(): 0 | 1 | 2 } | undefined;
}
interface DiffConfigRequest {
  getOldInputs(): { toJavaScript(): Props } | undefined;
  getOlds(): { toJavaScript(): Props } | undefined;
  getNews(): { toJavaScript(): Props } | undefined;
}

/** The engine's autonaming modes, by their number in CheckRequest.AutonamingOptions. */
const NAMING_MODES = ["propose", "enforce", "disable"] as const;

/** Configure's values: the typed arguments when sent, else the `hosting:config:*` variables. */
function configureValues(req: ConfigureRequest): Props {
  const args = req.getArgs()?.toJavaScript() ?? {};
  if (Object.keys(args).length > 0) return args;
  return Object.fromEntries(req.getVariablesMap().entries());
}

function handToProvider(p: HostingProvider): void {
  const proto = grpc.Server.prototype;
  const addService = proto.addService;
  proto.addService = function (service, impl) {
    if (service === provrpc.ResourceProviderService) {
      const configure = (impl.configure as Handler<ConfigureRequest>).bind(impl);
      impl.configure = ((call, callback) => {
        p.configureWith(configureValues(call.request));
        // The engine then passes `pulumi:autonaming`'s proposal to check.
        configure(call, (err, res) => {
          (
            res as { setSupportsAutonamingConfiguration?(v: boolean): void } | undefined
          )?.setSupportsAutonamingConfiguration?.(true);
          callback(err, res);
        });
      }) satisfies Handler<ConfigureRequest>;

      const check = (impl.check as Handler<NamingRequest>).bind(impl);
      impl.check = ((call, callback) => {
        const naming = call.request.getAutonaming();
        if (naming) {
          p.proposeName(call.request.getUrn(), {
            name: naming.getProposedName() || undefined,
            mode: NAMING_MODES[naming.getMode()] ?? "propose",
          });
        }
        check(call, callback);
      }) satisfies Handler<NamingRequest>;

      impl.diffConfig = ((call, callback) => {
        const r = call.request;
        const olds = (r.getOldInputs() ?? r.getOlds())?.toJavaScript() ?? {};
        p.diffConfig(olds, r.getNews()?.toJavaScript() ?? {}).then(
          (d) => callback(null, diffResponse(d)),
          (err: unknown) => callback(err),
        );
      }) satisfies Handler<DiffConfigRequest>;

      impl.checkConfig = ((call, callback) => {
        try {
          const resp = new provproto.CheckResponse();
          resp.setInputs(
            Struct.fromJavaScript(checkedConfig(call.request.getNews()?.toJavaScript() ?? {})),
          );
          callback(null, resp);
        } catch (err) {
          callback(err);
        }
      }) satisfies Handler<CheckRequest>;

      const read = (impl.read as Handler<unknown>).bind(impl);
      impl.read = ((call, callback) => {
        read(call, (err, res) => {
          // No id: no object. Without properties the engine says so ("does not exist").
          const resp = res as ReadResponse | undefined;
          if (!err && resp && resp.getId() === "") {
            resp.clearProperties();
            resp.clearInputs();
          }
          callback(err, res);
        });
      }) satisfies Handler<unknown>;
    }
    addService.call(this, service, impl);
  };
}

/** DiffConfig's answer in the protocol's message. */
function diffResponse(d: { replaces: string[] }): unknown {
  const resp = new provproto.DiffResponse();
  const changes = provproto.DiffResponse.DiffChanges;
  resp.setChanges(d.replaces.length > 0 ? changes.DIFF_SOME : changes.DIFF_NONE);
  resp.setReplacesList(d.replaces);
  resp.setDeletebeforereplace(false);
  return resp;
}

/** Serves the provider: prints the port, then answers the engine until it is stopped. */
export async function main(args: string[]): Promise<void> {
  const p = new HostingProvider(version, engineLog(args));
  handToProvider(p);
  await pulumiProvider.main(p, args);
}

/* eslint-disable @typescript-eslint/no-require-imports */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type * as grpcType from "@grpc/grpc-js";
import { PULUMI_DIR, stackDir } from "./stack-dir";

// Pulumi's generated stubs and the grpc-js instance they were built against.
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [PULUMI_DIR] })) as typeof grpcType;
const provrpc = require(join(PULUMI_DIR, "proto", "provider_grpc_pb"));
const provproto = require(join(PULUMI_DIR, "proto", "provider_pb"));
const structproto = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [PULUMI_DIR] }),
);
const statusproto = require(join(PULUMI_DIR, "proto", "status_pb"));

export type Props = Record<string, unknown>;

export interface InitFailure {
  message: string;
  id: string;
  properties: Props;
  reasons: string[];
}

type Unary = (req: unknown, cb: (err: grpcType.ServiceError | null, res: any) => void) => void; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Pulumi's own dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) as a child process,
 * driven over gRPC the way the engine drives it.
 */
export class ProviderHost {
  private constructor(
    private readonly child: ChildProcess,
    private readonly client: Record<string, Unary>,
    readonly stderr: () => string,
  ) {}

  static async start(env: NodeJS.ProcessEnv = {}): Promise<ProviderHost> {
    const child = spawn(
      process.execPath,
      [join(PULUMI_DIR, "cmd", "dynamic-provider"), "127.0.0.1:1"],
      {
        cwd: stackDir(),
        env: { ...process.env, HOSTING_API_URL: "", HOSTING_TOKEN: "", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    const port = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`provider host exited ${code}: ${err}`)));
      createInterface({ input: child.stdout! }).once("line", (l) => resolve(l.trim()));
    });
    child.removeAllListeners("exit");
    const client = new provrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
    return new ProviderHost(child, client, () => err);
  }

  private call<T>(method: string, req: unknown): Promise<T> {
    return new Promise((resolve, reject) => {
      this.client[method].call(this.client, req, (e: grpcType.ServiceError | null, res: T) =>
        e ? reject(decodeError(e)) : resolve(res),
      );
    });
  }

  async configure(config: Record<string, string>): Promise<void> {
    const req = new provproto.ConfigureRequest();
    req.setArgs(structproto.Struct.fromJavaScript(config));
    await this.call("configure", req);
  }

  async check(urn: string, olds: Props, news: Props) {
    const req = new provproto.CheckRequest();
    req.setUrn(urn);
    req.setOlds(structproto.Struct.fromJavaScript(olds));
    req.setNews(structproto.Struct.fromJavaScript(news));
    const res = await this.call<any>("check", req); // eslint-disable-line @typescript-eslint/no-explicit-any
    return {
      inputs: res.getInputs().toJavaScript() as Props,
      failures: res.getFailuresList().map((f: { getProperty(): string; getReason(): string }) => ({
        property: f.getProperty(),
        reason: f.getReason(),
      })) as Array<{ property: string; reason: string }>,
    };
  }

  async diff(id: string, urn: string, olds: Props, news: Props) {
    const req = new provproto.DiffRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setOlds(structproto.Struct.fromJavaScript(olds));
    req.setNews(structproto.Struct.fromJavaScript(news));
    const res = await this.call<any>("diff", req); // eslint-disable-line @typescript-eslint/no-explicit-any
    const C = provproto.DiffResponse.DiffChanges;
    return {
      changes:
        res.getChanges() === C.DIFF_SOME
          ? true
          : res.getChanges() === C.DIFF_NONE
            ? false
            : undefined,
      replaces: res.getReplacesList() as string[],
      deleteBeforeReplace: res.getDeletebeforereplace() as boolean,
    };
  }

  async create(urn: string, props: Props) {
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(structproto.Struct.fromJavaScript(props));
    const res = await this.call<any>("create", req); // eslint-disable-line @typescript-eslint/no-explicit-any
    return { id: res.getId() as string, properties: res.getProperties().toJavaScript() as Props };
  }

  async read(id: string, urn: string, props: Props, inputs: Props = {}) {
    const req = new provproto.ReadRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setProperties(structproto.Struct.fromJavaScript(props));
    req.setInputs(structproto.Struct.fromJavaScript(inputs));
    const res = await this.call<any>("read", req); // eslint-disable-line @typescript-eslint/no-explicit-any
    return {
      id: res.getId() as string,
      properties: res.getProperties()?.toJavaScript() as Props,
      inputs: res.getInputs()?.toJavaScript() as Props | undefined,
    };
  }

  async update(id: string, urn: string, olds: Props, news: Props) {
    const req = new provproto.UpdateRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setOlds(structproto.Struct.fromJavaScript(olds));
    req.setNews(structproto.Struct.fromJavaScript(news));
    const res = await this.call<any>("update", req); // eslint-disable-line @typescript-eslint/no-explicit-any
    return res.getProperties().toJavaScript() as Props;
  }

  async delete(id: string, urn: string, props: Props): Promise<void> {
    const req = new provproto.DeleteRequest();
    req.setId(id);
    req.setUrn(urn);
    req.setProperties(structproto.Struct.fromJavaScript(props));
    await this.call("delete", req);
  }

  async stop(): Promise<void> {
    (this.client as unknown as { close(): void }).close();
    if (this.child.exitCode === null) {
      const gone = new Promise((r) => this.child.once("exit", r));
      this.child.kill("SIGTERM");
      await gone;
    }
  }
}

/** Turns a gRPC error into an Error, unpacking Pulumi's "created but failed to initialise" detail. */
function decodeError(e: grpcType.ServiceError): Error & { initFailure?: InitFailure } {
  const err = new Error(e.details || e.message) as Error & { initFailure?: InitFailure };
  const bin = e.metadata?.get("grpc-status-details-bin")?.[0];
  if (bin) {
    const status = statusproto.Status.deserializeBinary(new Uint8Array(bin as Buffer));
    for (const any of status.getDetailsList()) {
      if (any.getTypeName() === "pulumirpc.ErrorResourceInitFailed") {
        const d = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
        err.initFailure = {
          message: status.getMessage(),
          id: d.getId(),
          properties: d.getProperties()?.toJavaScript() ?? {},
          reasons: d.getReasonsList(),
        };
      }
    }
  }
  return err;
}

// Pulumi's dynamic-provider host as a child process, driven over gRPC the way the engine drives it.
const { spawn } = require("node:child_process");
const { join } = require("node:path");
const { createInterface } = require("node:readline");
const {
  PULUMI_DIR,
  grpc,
  provrpc,
  provproto,
  structproto,
  statusproto,
} = require("./pulumi-parts");
const { exited } = require("./exited");
const { stackDir } = require("./stack-dir");

const NATIVE_PLUGIN = join(__dirname, "..", "..", "plugin", "pulumi-resource-hosting");

const toStruct = (o) => structproto.Struct.fromJavaScript(o ?? {});
const STRUCT_FIELDS = new Set(["olds", "news", "properties", "inputs", "args"]);

/** A request message from plain fields: ids and URNs as they are, property bags as Structs. */
function message(Type, fields) {
  const req = new Type();
  for (const [k, v] of Object.entries(fields)) {
    req[`set${k[0].toUpperCase()}${k.slice(1)}`](STRUCT_FIELDS.has(k) ? toStruct(v) : v);
  }
  return req;
}

class ProviderHost {
  constructor(child, client, stderr, stdout) {
    this.child = child;
    this.client = client;
    this.stderr = stderr;
    this.stdout = stdout;
  }

  /** Starts the host in `cwd` (default: the test stack folder) with extra environment. */
  static start(env = {}, cwd = stackDir()) {
    const host = join(PULUMI_DIR, "cmd", "dynamic-provider");
    return ProviderHost.spawn(process.execPath, [host], env, cwd);
  }

  /**
   * Starts the package's native plugin instead: its one-file bundle (or the file `plugin`), run
   * by its `#!` line as the engine runs it.
   */
  static startNative(env = {}, cwd = stackDir(), plugin = NATIVE_PLUGIN) {
    return ProviderHost.spawn(plugin, [], env, cwd);
  }

  static async spawn(command, args, env, cwd) {
    const child = spawn(command, [...args, "127.0.0.1:1"], {
      cwd,
      env: { ...process.env, HOSTING_API_URL: "", HOSTING_TOKEN: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d.toString()));
    // The first line is the port; every later line is output the engine would show the user.
    const out = [];
    const port = await new Promise((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`provider host exited ${code}: ${err}`)));
      child.once("error", reject); // not started (no such file, not executable)
      let portLine;
      createInterface({ input: child.stdout }).on("line", (l) => {
        if (portLine !== undefined) return out.push(l);
        portLine = l.trim();
        resolve(portLine);
      });
    });
    child.removeAllListeners("exit");
    child.removeAllListeners("error");
    const client = new provrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
    return new ProviderHost(
      child,
      client,
      () => err,
      () => out.join("\n"),
    );
  }

  /**
   * What the host printed on `stream` once every pattern is in it. A gRPC reply can arrive
   * before the line the host wrote just before it has come through the pipe, so a test that
   * looks for a line waits for it (with a deadline) instead of reading at once.
   */
  async printed(stream, patterns, deadlineMs = 10_000) {
    const read = stream === "stdout" ? this.stdout : this.stderr;
    const holds = (text) =>
      patterns.every((p) => (typeof p === "string" ? text.includes(p) : p.test(text)));
    const giveUpAt = Date.now() + deadlineMs;
    while (!holds(read())) {
      // Not cut short when the host exits: its last lines may still be in the pipe then.
      if (Date.now() > giveUpAt) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    return read();
  }

  call(method, req) {
    return new Promise((resolve, reject) => {
      this.client[method](req, (e, res) => (e ? reject(decodeError(e)) : resolve(res)));
    });
  }

  async configure(config) {
    const req = new provproto.ConfigureRequest();
    req.setArgs(toStruct(config));
    // Variables are text; structured values (hosting:accounts) travel as JSON there.
    for (const [k, v] of Object.entries(config)) {
      req.getVariablesMap().set(k, typeof v === "string" ? v : JSON.stringify(v));
    }
    await this.call("configure", req);
  }

  async check(urn, olds, news) {
    const res = await this.call("check", message(provproto.CheckRequest, { urn, olds, news }));
    return {
      inputs: res.getInputs().toJavaScript(),
      failures: res
        .getFailuresList()
        .map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async diff(id, urn, olds, news) {
    const res = await this.call("diff", message(provproto.DiffRequest, { id, urn, olds, news }));
    const C = provproto.DiffResponse.DiffChanges;
    const changes = res.getChanges();
    return {
      changes: changes === C.DIFF_SOME ? true : changes === C.DIFF_NONE ? false : undefined,
      replaces: res.getReplacesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
    };
  }

  async create(urn, props) {
    const req = message(provproto.CreateRequest, { urn, properties: props });
    const res = await this.call("create", req);
    return { id: res.getId(), properties: res.getProperties().toJavaScript() };
  }

  async read(id, urn, props, inputs = {}) {
    const req = message(provproto.ReadRequest, { id, urn, properties: props, inputs });
    const res = await this.call("read", req);
    return {
      id: res.getId(),
      properties: res.getProperties()?.toJavaScript() ?? {},
      inputs: res.getInputs()?.toJavaScript(),
    };
  }

  async update(id, urn, olds, news) {
    const req = message(provproto.UpdateRequest, { id, urn, olds, news });
    return (await this.call("update", req)).getProperties().toJavaScript();
  }

  async invoke(tok, args) {
    const res = await this.call("invoke", message(provproto.InvokeRequest, { tok, args }));
    return {
      outputs: res.getReturn()?.toJavaScript() ?? {},
      failures: res
        .getFailuresList()
        .map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async getSchema() {
    return JSON.parse((await this.call("getSchema", new provproto.GetSchemaRequest())).getSchema());
  }

  async delete(id, urn, props) {
    await this.call("delete", message(provproto.DeleteRequest, { id, urn, properties: props }));
  }

  /** Kills the host at once (SIGKILL), as a crash or a killed CI job would; pending calls fail. */
  async kill() {
    this.client.close();
    this.child.kill("SIGKILL");
    await exited(this.child);
  }

  async stop() {
    this.client.close();
    this.child.kill("SIGTERM");
    await exited(this.child);
  }
}

/** A gRPC error as an Error, with Pulumi's "created but failed to initialise" detail unpacked. */
function decodeError(e) {
  const err = new Error(e.details || e.message);
  const bin = e.metadata?.get("grpc-status-details-bin")?.[0];
  if (bin) {
    const status = statusproto.Status.deserializeBinary(new Uint8Array(bin));
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

module.exports = { ProviderHost };

/*
 * A small deployment engine for tests, standing in for the Pulumi CLI (which cannot be installed
 * here). It runs a program with Pulumi's own program runtime (`@pulumi/pulumi/cmd/run`), serves
 * the ResourceMonitor and Engine gRPC services it talks to, sends every dynamic resource to
 * Pulumi's own dynamic-provider host (Check → Diff → Create/Update/Replace/Delete), and keeps a
 * JSON state file between runs. It is a test instrument: real users run the Pulumi CLI.
 */
const { spawn } = require("node:child_process");
const { join } = require("node:path");
const {
  PULUMI_DIR,
  grpc,
  structproto,
  emptyproto,
  resrpc,
  resproto,
  enginerpc,
  engineproto,
} = require("./pulumi-parts");
const { ProviderHost } = require("./provider-host");
const { loadState, saveState } = require("./state");
const { unwrap, wrap, hasUnknown, sameProps } = require("./values");

const STACK_TYPE = "pulumi:pulumi:Stack";

/** A resource's state as the provider host wants it: its outputs plus its `__provider` text. */
const stateProps = (r) => ({ ...r.outputs, __provider: r.inputs.__provider });

class Deployment {
  /**
   * @param {object} o
   * @param {string} o.programDir   folder of the Pulumi program
   * @param {string} o.stateFile    where state is kept between runs
   * @param {Record<string,string>} o.config   stack config ("hosting:apiUrl", …)
   * @param {string[]} [o.secretConfigKeys]
   * @param {string} [o.project] @param {string} [o.stack]
   * @param {string} [o.providerCwd] working folder of the provider host
   */
  constructor(o) {
    this.o = { project: "hosting", stack: "dev", secretConfigKeys: [], ...o };
  }

  /**
   * `pulumi preview`; with `{ refresh: true }`, `pulumi preview --refresh`: one provider host
   * refreshes the state and then serves the preview, as the CLI does in one command.
   */
  preview(o = {}) {
    return this.#run(true, o.refresh);
  }

  /** `pulumi up`; `{ refresh: true }` as for preview. */
  up(o = {}) {
    return this.#run(false, o.refresh);
  }

  /** Reads every resource back from the service and updates (or drops) it in the state. */
  async refresh() {
    const host = await this.#host();
    try {
      return await this.#refreshWith(host);
    } finally {
      await host.stop();
    }
  }

  async #refreshWith(host) {
    const state = loadState(this.o.stateFile);
    const steps = [];
    const kept = [];
    for (const r of state.resources) {
      const res = await host.read(r.id, r.urn, stateProps(r), r.inputs);
      if (!res.id) {
        steps.push({ urn: r.urn, op: "delete" });
        continue;
      }
      const changed = !sameProps(res.properties, stateProps(r));
      steps.push({ urn: r.urn, op: changed ? "update" : "same" });
      kept.push({ ...r, outputs: res.properties, inputs: res.inputs ?? r.inputs });
    }
    state.resources = kept;
    saveState(this.o.stateFile, state);
    return { steps };
  }

  /** Deletes everything in the state, dependents first. */
  async destroy() {
    const state = loadState(this.o.stateFile);
    const host = await this.#host();
    const steps = [];
    try {
      for (const r of [...state.resources].reverse()) {
        if (!r.retainOnDelete) await host.delete(r.id, r.urn, stateProps(r));
        state.resources = state.resources.filter((x) => x !== r);
        saveState(this.o.stateFile, state);
        steps.push({ urn: r.urn, op: r.retainOnDelete ? "retain" : "delete" });
      }
      state.outputs = {};
      state.secretOutputs = [];
      saveState(this.o.stateFile, state);
    } finally {
      await host.stop();
    }
    return { steps };
  }

  async #host() {
    const host = await ProviderHost.start({}, this.o.providerCwd);
    await host.configure(this.o.config);
    return host;
  }

  async #run(dryRun, refresh = false) {
    // The host starts while the program runtime starts; the first registration waits for it.
    const starting = this.#host();
    const hostReady = refresh
      ? starting.then(async (h) => ({ host: h, refreshed: await this.#refreshWith(h) }))
      : starting.then((h) => ({ host: h }));
    // A host that never came up is reported below, whatever the program made of it.
    hostReady.catch(() => undefined);
    if (refresh) {
      try {
        await hostReady;
      } catch (err) {
        await (await starting.catch(() => undefined))?.stop();
        throw err;
      }
    }
    const old = loadState(this.o.stateFile);
    const ctx = {
      dryRun,
      host: lazyHost(hostReady),
      old,
      oldByUrn: new Map(old.resources.map((r) => [r.urn, r])),
      next: [],
      pendingDeletes: [],
      steps: [],
      outputs: {},
      secretOutputs: [],
      logs: [],
      project: this.o.project,
      stack: this.o.stack,
      // New resources sort after every old one, so reverse order is always dependents first.
      baseOrder: old.resources.reduce((m, r) => Math.max(m, r.order + 1), 0),
    };
    const server = new grpc.Server();
    server.addService(resrpc.ResourceMonitorService, monitorService(ctx));
    server.addService(enginerpc.EngineService, engineService(ctx));
    const port = await new Promise((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    const addr = `127.0.0.1:${port}`;
    let result;
    let host;
    let refreshed;
    try {
      const run = await runProgram(this.o, addr, dryRun);
      ({ host, refreshed } = await hostReady);
      result = { ...run, ok: run.code === 0 };
      if (!dryRun) {
        // Whatever the program no longer declares goes, and so do replaced objects, dependents first.
        const registered = new Set(ctx.next.map((r) => r.urn));
        const gone = run.code === 0 ? old.resources.filter((r) => !registered.has(r.urn)) : [];
        const toDelete = [...ctx.pendingDeletes, ...gone].sort((a, b) => b.order - a.order);
        for (const r of toDelete) {
          if (!r.retainOnDelete) await host.delete(r.id, r.urn, stateProps(r));
          if (gone.includes(r))
            ctx.steps.push({ urn: r.urn, op: r.retainOnDelete ? "retain" : "delete" });
        }
        const kept = run.code === 0 ? [] : old.resources.filter((r) => !registered.has(r.urn));
        saveState(this.o.stateFile, {
          resources: [...kept, ...ctx.next].sort((a, b) => a.order - b.order),
          outputs: run.code === 0 ? ctx.outputs : old.outputs,
          secretOutputs: run.code === 0 ? ctx.secretOutputs : old.secretOutputs,
        });
      } else {
        for (const r of old.resources) {
          if (!ctx.next.some((n) => n.urn === r.urn)) ctx.steps.push({ urn: r.urn, op: "delete" });
        }
      }
    } finally {
      server.forceShutdown();
      await (host ?? (await starting.catch(() => undefined)))?.stop();
    }
    return {
      ...result,
      ...(refreshed ? { refreshed } : {}),
      steps: ctx.steps,
      outputs: ctx.outputs,
      secretOutputs: ctx.secretOutputs,
      logs: ctx.logs,
    };
  }
}

/** The host's provider calls, each waiting until the host has started (and refreshed). */
function lazyHost(ready) {
  const call =
    (method) =>
    async (...args) =>
      (await ready).host[method](...args);
  return Object.fromEntries(
    ["check", "diff", "create", "read", "update", "delete"].map((m) => [m, call(m)]),
  );
}

function runProgram(o, addr, dryRun) {
  const args = [
    join(PULUMI_DIR, "cmd", "run"),
    `--monitor=${addr}`,
    `--engine=${addr}`,
    `--project=${o.project}`,
    `--stack=${o.stack}`,
    `--pwd=${o.programDir}`,
    ...(dryRun ? ["--dry-run"] : []),
    o.programDir,
  ];
  const child = spawn(process.execPath, args, {
    cwd: o.programDir,
    env: {
      ...process.env,
      HOSTING_API_URL: "",
      HOSTING_TOKEN: "",
      PULUMI_CONFIG: JSON.stringify(o.config),
      PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(o.secretConfigKeys),
      PULUMI_NODEJS_TYPESCRIPT: "true",
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      ...(o.env ?? {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const unimplemented = (name) => (_call, cb) =>
  cb({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not supported by the test harness` });

function engineService(ctx) {
  let root = "";
  return {
    log: (call, cb) => {
      ctx.logs.push({
        severity: call.request.getSeverity(),
        message: call.request.getMessage(),
        urn: call.request.getUrn(),
      });
      cb(null, new emptyproto.Empty());
    },
    getRootResource: (_call, cb) => {
      const res = new engineproto.GetRootResourceResponse();
      res.setUrn(root);
      cb(null, res);
    },
    setRootResource: (call, cb) => {
      root = call.request.getUrn();
      cb(null, new engineproto.SetRootResourceResponse());
    },
    requirePulumiVersion: (_call, cb) => cb(null, new emptyproto.Empty()),
    startDebugging: unimplemented("StartDebugging"),
  };
}

function monitorService(ctx) {
  const service = {};
  for (const name of Object.keys(resrpc.ResourceMonitorService))
    service[name] = unimplemented(name);
  let order = 0;
  return {
    ...service,
    supportsFeature: (call, cb) => {
      const res = new resproto.SupportsFeatureResponse();
      res.setHassupport(call.request.getId() === "secrets");
      cb(null, res);
    },
    signalAndWaitForShutdown: (_call, cb) => cb(null, new emptyproto.Empty()),
    registerResourceOutputs: (call, cb) => {
      const urn = call.request.getUrn();
      if (urn.endsWith(`::${STACK_TYPE}::${ctx.project}-${ctx.stack}`)) {
        const { plain, secretKeys } = unwrap(call.request.getOutputs()?.toJavaScript() ?? {});
        ctx.outputs = plain;
        ctx.secretOutputs = [...secretKeys];
      }
      cb(null, new emptyproto.Empty());
    },
    registerResource: (call, cb) => {
      const req = call.request;
      const mine = order++;
      registerOne(ctx, req, mine).then(
        (res) => cb(null, res),
        (err) => cb({ code: grpc.status.UNKNOWN, details: err.message }),
      );
    },
  };
}

function urnOf(ctx, type, name) {
  return `urn:pulumi:${ctx.stack}::${ctx.project}::${type}::${name}`;
}

async function registerOne(ctx, req, order) {
  const type = req.getType();
  const name = req.getName();
  const response = new resproto.RegisterResourceResponse();
  if (!req.getCustom()) {
    response.setUrn(urnOf(ctx, type, type === STACK_TYPE ? `${ctx.project}-${ctx.stack}` : name));
    response.setObject(structproto.Struct.fromJavaScript({}));
    return response;
  }
  const urn = urnOf(ctx, type, name);
  const { plain: news, secretKeys: secretInputs } = unwrap(req.getObject()?.toJavaScript() ?? {});
  const secretKeys = new Set([...secretInputs, ...req.getAdditionalsecretoutputsList()]);
  const old = ctx.oldByUrn.get(urn);
  const opts = {
    retainOnDelete: req.getRetainondelete(),
    deleteBeforeReplace: req.getDeletebeforereplace(),
    dependencies: req.getDependenciesList(),
  };
  const checked = await ctx.host.check(urn, old?.inputs ?? {}, news);
  if (checked.failures.length > 0) {
    const list = checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
    throw new Error(`${urn}: invalid inputs: ${list}`);
  }
  const inputs = checked.inputs;
  const known = !hasUnknown(inputs);
  let op = "create";
  let diff;
  if (old) {
    diff = await ctx.host.diff(old.id, urn, stateProps(old), inputs);
    op = diff.changes === false ? "same" : diff.replaces.length > 0 ? "replace" : "update";
  }
  ctx.steps.push({ urn, op, ...(diff?.replaces?.length ? { replaces: diff.replaces } : {}) });

  let id = old?.id ?? "";
  let outputs;
  if (op === "same") {
    outputs = old.outputs;
  } else if (ctx.dryRun || !known) {
    // Preview: known inputs show through; everything the service computes is unknown.
    outputs = op === "update" ? { ...old.outputs, ...inputs } : { ...inputs };
    if (op !== "update") id = "";
  } else if (op === "update") {
    outputs = await ctx.host.update(old.id, urn, stateProps(old), inputs);
  } else {
    if (op === "replace" && (diff.deleteBeforeReplace || opts.deleteBeforeReplace)) {
      await ctx.host.delete(old.id, urn, stateProps(old));
    } else if (op === "replace") {
      ctx.pendingDeletes.push(old);
    }
    try {
      const created = await ctx.host.create(urn, inputs);
      id = created.id;
      outputs = created.properties;
    } catch (err) {
      if (err.initFailure) {
        ctx.next.push(
          record(
            urn,
            type,
            name,
            err.initFailure.id,
            inputs,
            err.initFailure.properties,
            secretKeys,
            opts,
            ctx.baseOrder + order,
          ),
        );
      }
      throw err;
    }
  }
  if (!ctx.dryRun)
    ctx.next.push(
      record(
        urn,
        type,
        name,
        id,
        inputs,
        outputs,
        secretKeys,
        opts,
        old && op !== "replace" ? old.order : ctx.baseOrder + order,
      ),
    );
  else ctx.next.push({ urn });
  const { __provider: _p, ...visible } = outputs;
  response.setUrn(urn);
  response.setId(ctx.dryRun && op !== "same" && op !== "update" ? "" : id);
  response.setObject(structproto.Struct.fromJavaScript(wrap(visible, secretKeys)));
  return response;
}

function record(urn, type, name, id, inputs, outputs, secretKeys, opts, order) {
  const { __provider: _p, ...outs } = outputs;
  return {
    urn,
    type,
    name,
    id,
    inputs,
    outputs: outs,
    secretKeys: [...secretKeys],
    order,
    ...opts,
  };
}

module.exports = { Deployment };

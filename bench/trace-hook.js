// `npm run bench -- engine --trace`: loaded into every Node.js process the Pulumi CLI starts (the
// program and the provider host) through NODE_OPTIONS=--require, it writes one JSON line per gRPC
// call to HOSTING_BENCH_TRACE/<pid>.jsonl: the provider host's served calls (Check, Diff, Create,
// …) and the program's calls to the engine (RegisterResource, …), with their start and end on the
// wall clock (ms since the epoch, as the emulator's request log), the resource's URN when the
// request carries one, and the process's own start-up. It touches nothing else, and the same hook
// runs for this provider and for the no-op floor.
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const { performance } = require("node:perf_hooks");

const dir = process.env.HOSTING_BENCH_TRACE;
const now = () => performance.timeOrigin + performance.now();

if (dir) {
  const file = path.join(dir, `${process.pid}.jsonl`);
  // Each line written at once: the engine ends a provider host with SIGKILL, and lines buffered
  // for an exit handler would be lost.
  const write = (e) => fs.appendFileSync(file, `${JSON.stringify({ pid: process.pid, ...e })}\n`);
  write({ kind: "process", argv: process.argv.slice(1, 3), start: performance.timeOrigin });
  const urnOf = (req) => {
    try {
      return typeof req?.getUrn === "function" ? req.getUrn() : undefined;
    } catch {
      return undefined;
    }
  };

  /** A served unary call: timed from its arrival to its callback. */
  const served = (name, fn) =>
    function (call, callback) {
      const start = now();
      const urn = urnOf(call.request);
      return fn(call, (err, ...rest) => {
        const { user, system } = process.cpuUsage();
        const cpu = (user + system) / 1000;
        write({ kind: "serve", name, urn, start, end: now(), cpu, failed: err ? true : undefined });
        return callback(err, ...rest);
      });
    };

  const patch = (grpc) => {
    if (!grpc?.Server || grpc.Server.prototype.__benchTraced) return;
    grpc.Server.prototype.__benchTraced = true;
    const addService = grpc.Server.prototype.addService;
    grpc.Server.prototype.addService = function (service, impl) {
      // The implementation may be a class instance: its methods are on its prototype.
      const wrapped = {};
      for (const name of Object.keys(service)) {
        const fn = impl[name] ?? impl[service[name].originalName];
        if (typeof fn !== "function") continue;
        const unary = !service[name].requestStream && !service[name].responseStream;
        wrapped[name] = unary ? served(name, fn.bind(impl)) : fn.bind(impl);
      }
      return addService.call(this, service, wrapped);
    };
  };

  /** The program's RegisterResource calls to the engine: from the call to the engine's answer. */
  const patchMonitor = (stubs) => {
    const proto = stubs?.ResourceMonitorClient?.prototype;
    if (!proto || proto.__benchTraced) return;
    proto.__benchTraced = true;
    const register = proto.registerResource;
    proto.registerResource = function (req, ...rest) {
      const start = now();
      const urn = `${req.getType()}::${req.getName()}`;
      const i = rest.findIndex((r) => typeof r === "function");
      if (i >= 0) {
        const callback = rest[i];
        rest[i] = (err, value) => {
          write({ kind: "call", name: "RegisterResource", urn, start, end: now() });
          return callback(err, value);
        };
      }
      return register.call(this, req, ...rest);
    };
  };

  /** A function timed as a span (until its promise settles, if it returns one). */
  const timed = (name, fn) =>
    function (...args) {
      const start = now();
      const done = () => write({ kind: "span", name, start, end: now() });
      const out = fn.apply(this, args);
      if (out && typeof out.then === "function") out.then(done, done);
      else done();
      return out;
    };

  // Inside this package's build: exports replaced by timed ones. TypeScript's CommonJS output
  // calls an imported function through its module's exports object, so calls from other modules
  // are timed; calls within one module are not.
  const dist = path.join(__dirname, "..", "dist");
  const spans = {
    "provider/app/source-hash.js": ["hashSourceFiles"],
    "provider/app/packaging.js": ["packageSource"],
    "provider/app/create-app.js": ["createApp"],
    "provider/app-directory.js": ["listAppsSince", "listAppsShared"],
    "provider/app/source-index.js": [],
  };
  const methodSpans = { "api/client.js": ["HostingClient", ["createApp", "listApps"]] };
  const wrappedModules = new WeakSet();
  const wrapModule = (file, exported) => {
    // A module is required from many places: its exports are wrapped the first time only.
    if (wrappedModules.has(exported)) return;
    wrappedModules.add(exported);
    const rel = path.relative(dist, file).split(path.sep).join("/");
    for (const name of spans[rel] ?? []) {
      if (typeof exported[name] === "function") exported[name] = timed(name, exported[name]);
    }
    const m = methodSpans[rel];
    if (m && exported[m[0]] && !exported[m[0]].prototype.__benchTraced) {
      const proto = exported[m[0]].prototype;
      proto.__benchTraced = true;
      for (const name of m[1]) proto[name] = timed(`client.${name}`, proto[name]);
    }
    if (rel === "provider/handlers.js" && !exported.__benchTraced) {
      exported.__benchTraced = true;
      const made = exported.providerHandlers;
      exported.providerHandlers = (kind) => {
        const methods = made(kind);
        if (methods.__benchTraced) return methods;
        for (const op of ["check", "diff", "create", "read", "update", "delete"]) {
          if (typeof methods[op] === "function") methods[op] = timed(`handler.${op}`, methods[op]);
        }
        methods.__benchTraced = true;
        return methods;
      };
    }
  };

  const load = Module._load;
  Module._load = function (request, parent, ...rest) {
    const exported = load.call(this, request, parent, ...rest);
    if (request === "@grpc/grpc-js") patch(exported);
    else if (/resource_grpc_pb(\.js)?$/.test(request)) patchMonitor(exported);
    else if (request.startsWith(".") && parent?.filename?.startsWith(dist)) {
      let file = path.resolve(path.dirname(parent.filename), request);
      if (!file.endsWith(".js")) file += ".js";
      wrapModule(file, exported);
    }
    return exported;
  };
}

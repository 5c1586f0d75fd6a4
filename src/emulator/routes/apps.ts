import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IncomingMessage } from "node:http";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse as parseDotenvText } from "dotenv";
import { HOSTNAME_PATTERN, normalizeHostname } from "../../api/hostname";
import { manifestSchema, type Manifest } from "../../api/manifest";
import { formatPath } from "../../api/parse";
import { wireAssumptions, type EndpointName } from "../../api/endpoints";
import { ArchiveRejected, inspectArchive } from "../archive";
import {
  ApiFailure,
  iso,
  minutesQuery,
  owned,
  type Call,
  type Emu,
  type Handler,
} from "../context";
import { LIST_POINTS, projectInfo } from "./usage";
import type { AppRecord } from "../world";
import { series } from "../rng";

export const EDGE_CNAME_TARGET = "edge.hosting-emulator.test";

export function appSummary(app: AppRecord) {
  const now = Date.now();
  const ready = now >= app.setup_ready_at;
  return {
    user_id: app.user_id,
    id: app.id,
    ram: app.ram,
    vcpu: app.vcpu,
    name: app.name,
    is_app: true,
    blocked_until: null,
    setup: ready,
    created_at: iso(app.created_at),
    last_setup_at: ready ? iso(app.setup_ready_at) : null,
    subdomain: app.subdomain,
    entrypoint: app.entrypoint,
    description: app.description,
    custom_command: app.custom_command,
    custom_domain: app.domain?.hostname ?? "",
  };
}

const listApps: Handler = (emu, { user }) =>
  emu.world.apps
    .filter((a) => a.user_id === user.id)
    .map((a) => ({ app: appSummary(a), project_info: projectInfo(a.id, 60, LIST_POINTS) }));

interface Upload {
  file?: string;
  bytes: number;
  sha256: string;
  env?: string;
}

async function readUpload(emu: Emu, call: Call, dir: string): Promise<Upload> {
  const req = call.req;
  if (!req.isMultipart()) {
    throw new ApiFailure(400, "POST /apps takes multipart/form-data with a project file and env");
  }
  const up: Upload = { bytes: 0, sha256: "" };
  try {
    const limits = { fileSize: emu.opts.maxUploadBytes, fieldSize: wireAssumptions.maxEnvBytes };
    for await (const part of req.parts({ limits })) {
      if (part.type === "file") {
        if (part.fieldname !== "project" || up.file) {
          part.file.resume();
          throw new ApiFailure(
            400,
            `unexpected file field ${part.fieldname}; send one file as project`,
          );
        }
        up.file = join(dir, "project.zip");
        const hash = createHash("sha256");
        const counter = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            up.bytes += chunk.length;
            hash.update(chunk);
            cb(null, chunk);
          },
        });
        const watch = truncationWatch(req.raw);
        try {
          const piping = pipeline(part.file, counter, createWriteStream(up.file));
          piping.catch(() => undefined); // may settle after the watch has already failed
          await Promise.race([piping, watch.done]);
        } finally {
          watch.stop();
        }
        if (part.file.truncated) throw tooLarge(emu);
        up.sha256 = hash.digest("hex");
      } else if (part.fieldname === "env") {
        // Never keep part of it: a cut value would be a different secret.
        if (part.valueTruncated) throw envTooLargeFailure();
        up.env = String(part.value ?? "");
      }
    }
  } catch (err) {
    if (err instanceof ApiFailure) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(emu);
    throw new ApiFailure(400, `malformed multipart body: ${(err as Error).message}`);
  }
  return up;
}

/**
 * busboy notices a body that ends inside a file part before anyone listens, and leaves the file
 * stream neither ended nor errored: the request would hang. Backpressure means the body is only
 * complete once the file's data has been pulled, so a file still open shortly after is truncated.
 */
function truncationWatch(raw: IncomingMessage): { done: Promise<never>; stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let fail: (err: Error) => void = () => undefined;
  const done = new Promise<never>((_resolve, reject) => (fail = reject));
  done.catch(() => undefined);
  const arm = () => {
    timer = setTimeout(() => fail(new Error("body ended inside the project file part")), 500);
  };
  if (raw.complete) arm();
  else raw.once("end", arm);
  return {
    done,
    stop: () => {
      raw.off("end", arm);
      if (timer) clearTimeout(timer);
    },
  };
}

const envTooLargeFailure = () =>
  new ApiFailure(413, `env is larger than the limit of ${wireAssumptions.maxEnvBytes} bytes`);

const parseEnv = (text: string): Record<string, string> =>
  Object.assign(Object.create(null) as Record<string, string>, parseDotenvText(text));

const tooLarge = (emu: Emu) =>
  new ApiFailure(
    413,
    `project archive is larger than the limit of ${emu.opts.maxUploadBytes} bytes`,
  );

function readManifest(text: string | undefined): Manifest | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiFailure(422, "hosting.json is not valid JSON");
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiFailure(422, `hosting.json: ${formatPath(issue.path)}: ${issue.message}`);
  }
  return parsed.data;
}

const createApp: Handler = async (emu, call) => {
  const dir = await mkdtemp(join(tmpdir(), "hosting-emulator-"));
  try {
    const up = await readUpload(emu, call, dir);
    if (!up.file) throw new ApiFailure(400, "the project file field is required");
    // Read with npm dotenv, the reference reader, rather than the client's own code.
    const env = parseEnv(up.env ?? "");
    let info;
    try {
      info = await inspectArchive(up.file);
    } catch (err) {
      if (err instanceof ArchiveRejected) throw new ApiFailure(400, err.message);
      throw err;
    }
    const m = readManifest(info.manifest);
    const id = emu.rng.uuid();
    const name = m?.name ?? `app-${id.slice(0, 8)}`;
    const subdomain =
      m?.subdomain ?? `${name.toLowerCase().replace(/[^a-z0-9-]/g, "-")}-${id.slice(0, 6)}`;
    if (emu.world.apps.some((a) => a.subdomain === subdomain)) {
      throw new ApiFailure(409, `subdomain ${subdomain} is already taken`);
    }
    if (m?.runtime) {
      const { language, version } = m.runtime;
      const known = emu.world.runtime_versions.some(
        (v) => v.language === language && v.version === version,
      );
      if (!known) throw new ApiFailure(422, `runtime ${language} ${version} is not available`);
    }
    const now = Date.now();
    const app: AppRecord = {
      id,
      user_id: call.user.id,
      name,
      ram: m?.ram ?? 512,
      vcpu: m?.vcpu ?? 1,
      subdomain,
      entrypoint: m?.entrypoint ?? "",
      description: m?.description ?? "",
      custom_command: m?.custom_command ?? "",
      runtime: m?.runtime ?? null,
      env_keys: Object.keys(env).sort(),
      created_at: now,
      setup_ready_at: now + emu.opts.setupDelayMs,
      web_enabled: true,
      analytics_enabled: false,
      domain: null,
      archive_sha256: up.sha256,
      archive_bytes: up.bytes,
    };
    emu.world.apps.push(app);
    emu.world.deployments.push({
      id: emu.rng.uuid(),
      app_id: id,
      created_at: now,
      commit: up.sha256,
    });
    return { id };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

function hostnameView(emu: Emu, app: AppRecord) {
  const d = app.domain!;
  const active = Date.now() - d.attached_at >= emu.opts.domainActivationMs;
  return {
    id: d.id,
    hostname: d.hostname,
    status: active ? "active" : "pending",
    ssl: {
      method: "txt",
      type: "dv",
      status: active ? "active" : "pending_validation",
      validation_records: [
        {
          type: "TXT",
          name: `_acme-challenge.${d.hostname}`,
          value: d.ssl_value,
          txt_name: `_acme-challenge.${d.hostname}`,
          txt_value: d.ssl_value,
        },
      ],
    },
    ownership_verification: {
      type: "txt",
      name: `_hosting-verify.${d.hostname}`,
      value: d.ownership_value,
      txt_name: `_hosting-verify.${d.hostname}`,
      txt_value: d.ownership_value,
    },
  };
}

const attachCustomDomain: Handler = (emu, { user, params, body }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  const raw = (body as { custom_domain?: unknown } | undefined)?.custom_domain;
  if (typeof raw !== "string" || raw.length === 0) {
    throw new ApiFailure(400, "custom_domain is required");
  }
  const hostname = normalizeHostname(raw);
  if (!HOSTNAME_PATTERN.test(hostname)) throw new ApiFailure(400, `${raw} is not a valid hostname`);
  if (app.domain && app.domain.hostname !== hostname) {
    throw new ApiFailure(
      409,
      `app already has custom domain ${app.domain.hostname}; remove it first`,
    );
  }
  if (emu.world.apps.some((a) => a !== app && a.domain?.hostname === hostname)) {
    throw new ApiFailure(409, `${hostname} is already attached to another app`);
  }
  if (!hostname.endsWith(emu.opts.pointedDomainSuffix)) {
    throw new ApiFailure(
      400,
      `${hostname} does not point at the edge: create a CNAME record ${hostname} → ${EDGE_CNAME_TARGET} and try again`,
    );
  }
  app.domain ??= {
    id: emu.rng.uuid(),
    hostname,
    attached_at: Date.now(),
    ownership_value: emu.rng.hex(16),
    ssl_value: emu.rng.hex(20),
  };
  return {
    message: `custom domain ${hostname} attached`,
    custom_hostname: hostnameView(emu, app),
    cname: EDGE_CNAME_TARGET,
  };
};

const removeCustomDomain: Handler = (emu, { user, params }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  if (!app.domain) throw new ApiFailure(404, `app ${app.id} has no custom domain`);
  app.domain = null;
  return { message: "custom domain removed" };
};

const getDashboardData: Handler = (emu, { user, params, query }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  const minutes = minutesQuery(query.minutes);
  if (!app.analytics_enabled) {
    throw new ApiFailure(
      400,
      "analytics is not enabled for this app; enable it with PATCH /apps/{app_id}/analytics",
    );
  }
  const points = Math.min(minutes, 60);
  const step = Math.ceil(minutes / points) * 60_000;
  const start = Date.now() - points * step;
  const ts = (key: string, min: number, max: number) =>
    series(`${app.id}:${key}:${minutes}`, points, min, max).map((value, i) => ({
      timestamp: iso(start + i * step),
      value,
    }));
  const rps = ts("rps", 0, 20);
  const counts = ts("count", 0, 500);
  const durations = ts("duration", 5, 300);
  const total = counts.reduce((a, p) => a + Math.round(p.value), 0);
  const avg = (xs: { value: number }[]) => xs.reduce((a, p) => a + p.value, 0) / (xs.length || 1);
  return {
    rps_timeseries: rps,
    request_count_series: counts,
    duration_series: durations,
    error_series: ts("errors", 0, 5),
    browser_data: [
      { browser: "Chrome", value: Math.round(total * 0.6) },
      { browser: "Firefox", value: Math.round(total * 0.25) },
      { browser: "Safari", value: total - Math.round(total * 0.6) - Math.round(total * 0.25) },
    ],
    route_series: [{ route: "/", value: total }],
    status_series: [{ status: 200, value: total }],
    top_slow_routes: [{ route: "/", average_duration_ms: Math.round(avg(durations)) }],
    top_error_routes: [],
    average_rps: Math.round(avg(rps) * 100) / 100,
    total_requests: total,
    average_duration_ms: Math.round(avg(durations) * 100) / 100,
    total_server_errors_500: 0,
  };
};

const listDeployments: Handler = (emu, { user, params }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  return emu.world.deployments
    .filter((d) => d.app_id === app.id)
    .map((d) => ({
      id: d.id,
      app_id: d.app_id,
      created_at: iso(d.created_at),
      error: "",
      owner: user.name,
      repo: "upload",
      branch: "main",
      commit: d.commit,
    }));
};

const getAppMetrics: Handler = (emu, { user, params, query }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  return projectInfo(app.id, minutesQuery(query.minutes));
};

const setWeb =
  (enabled: boolean): Handler =>
  (emu, { user, params }) => {
    const app = owned(emu.world.apps, params.app_id, user, "app");
    app.web_enabled = enabled;
    return { message: enabled ? "web access enabled" : "web access disabled" };
  };

const setAnalytics: Handler = (emu, { user, params, body }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  const enabled = (body as { enabled?: unknown } | undefined)?.enabled;
  if (typeof enabled !== "boolean") throw new ApiFailure(400, "body must be { enabled: boolean }");
  app.analytics_enabled = enabled;
  return { message: enabled ? "analytics enabled" : "analytics disabled" };
};

const deleteApp: Handler = (emu, { user, params }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  const w = emu.world;
  w.apps = w.apps.filter((a) => a !== app);
  w.deployments = w.deployments.filter((d) => d.app_id !== app.id);
  w.backups = w.backups.filter((b) => b.project_id !== app.id);
  return { message: "app deleted" };
};

export const appRoutes: Partial<Record<EndpointName, Handler>> = {
  listApps,
  createApp,
  attachCustomDomain,
  removeCustomDomain,
  getDashboardData,
  listDeployments,
  getAppMetrics,
  disableWebAccess: setWeb(false),
  enableWebAccess: setWeb(true),
  setAnalytics,
  deleteApp,
  listRuntimeVersions: (emu, { query }) =>
    emu.world.runtime_versions.filter((v) => !query.language || v.language === query.language),
};

import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseDotenvText } from "dotenv";
import type { AppSummary, EndpointName } from "../../api/wire";
import { assertType, type Covers } from "../../base";
import { inspectArchive } from "../archive";
import { EmulatorArchiveError, EmulatorReplyError } from "../errors";
import { iso, JsonText, owned, queryValue, type Handler } from "../context";
import { newAppRecord, type AppRecord, type NewAppRecord } from "../world";
import { dashboardRoutes } from "./app-dashboard";
import { domainRoutes } from "./app-domains";
import { readManifest } from "./app-manifest";
import { toggleRoutes } from "./app-toggles";
import { readUpload } from "./app-upload";
import { LIST_POINTS, projectInfoJson } from "./usage";

/* An app's lifecycle: list, create from an upload, deployments, delete; the rest is composed in. */

/** The record's fields `GET /apps` does not report as stored: its own, or told in another form. */
const NOT_AS_STORED = [
  "runtime",
  "env_keys",
  "created_at",
  "setup_ready_at",
  "web_enabled",
  "analytics_enabled",
  "domain",
  "archive_sha256",
  "archive_bytes",
] as const satisfies ReadonlyArray<keyof AppRecord>;

/** The fields of the wire type told from the record in another form (appSummary's own). */
type Told = "is_app" | "blocked_until" | "setup" | "created_at" | "last_setup_at" | "custom_domain";

/** What the list reports as the record stores it. */
type Reported = Omit<Required<AppSummary>, Told>;
type AsStored = Omit<AppRecord, (typeof NOT_AS_STORED)[number]>;

// The record stores every other field of the wire type, as a value of its type (a new setting is
// reported once the record keeps it), and the list reports nothing the wire type lacks.
assertType<Covers<AsStored, Reported, "AppRecord (src/emulator/world.ts), not in NOT_AS_STORED">>(
  true,
);
assertType<
  Covers<Reported, AsStored, "AppSummary, or NOT_AS_STORED (src/emulator/routes/apps.ts)">
>(true);
assertType<
  AsStored extends Pick<Reported, keyof AsStored & keyof Reported>
    ? true
    : "make AppRecord's types (src/emulator/world.ts) fit AppSummary's"
>(true);

/** The rest of the record's fields, as a new record has them (a state file's may carry more). */
const AS_STORED = Object.keys(newAppRecord({} as NewAppRecord)).filter(
  (k) => !(NOT_AS_STORED as readonly string[]).includes(k),
);

/** An app as `GET /apps` lists it: every field of the wire type. */
function appSummary(app: AppRecord, now: number) {
  const ready = now >= app.setup_ready_at;
  // What the asserts above hold: the record's fields, as the wire type has them. A loop, not
  // fromEntries and a spread: a list builds this for every app on every call.
  const stored: Record<string, unknown> = {};
  for (const k of AS_STORED) stored[k] = app[k as keyof AsStored];
  return Object.assign(stored as Reported, {
    is_app: true,
    blocked_until: null,
    setup: ready,
    created_at: iso(app.created_at),
    last_setup_at: ready ? iso(app.setup_ready_at) : null,
    custom_domain: app.domain?.hostname ?? "",
  }) satisfies Required<AppSummary>;
}

/** The list as JSON text: each app's usage series is sent as the text kept with it (usage.ts). */
const listApps: Handler = (emu, { user }) => {
  const now = emu.opts.now();
  const entries = emu.world.apps
    .filter((a) => a.user_id === user.id)
    .map(
      (a) =>
        `{"app":${JSON.stringify(appSummary(a, now))},"project_info":${projectInfoJson(a.id, 60, LIST_POINTS)}}`,
    );
  return new JsonText(`[${entries.join(",")}]`);
};

const parseEnv = (text: string): Record<string, string> =>
  Object.assign(Object.create(null) as Record<string, string>, parseDotenvText(text));

const createApp: Handler = async (emu, call) => {
  const dir = await mkdtemp(join(tmpdir(), "hosting-emulator-"));
  try {
    const up = await readUpload(emu, call, dir);
    if (!up.file) throw new EmulatorReplyError(400, "the project file field is required");
    // Read with npm dotenv, the reference reader, rather than the client's own code.
    const env = parseEnv(up.env ?? "");
    let info;
    try {
      info = await inspectArchive(up.file);
    } catch (err) {
      if (err instanceof EmulatorArchiveError) throw new EmulatorReplyError(400, err.message);
      throw err;
    }
    const m = readManifest(info.manifest);
    const id = emu.rng.uuid();
    const name = m?.name ?? `app-${id.slice(0, 8)}`;
    const subdomain =
      m?.subdomain ?? `${name.toLowerCase().replace(/[^a-z0-9-]/g, "-")}-${id.slice(0, 6)}`;
    if (emu.world.apps.some((a) => a.subdomain === subdomain)) {
      throw new EmulatorReplyError(409, `subdomain ${subdomain} is already taken`);
    }
    if (m?.runtime) {
      const { language, version } = m.runtime;
      const known = emu.world.runtime_versions.some(
        (v) => v.language === language && v.version === version,
      );
      if (!known)
        throw new EmulatorReplyError(422, `runtime ${language} ${version} is not available`);
    }
    if (emu.opts.keepArchivesIn)
      await copyFile(up.file, join(emu.opts.keepArchivesIn, `${id}.zip`));
    const now = Date.now();
    const failure = Object.hasOwn(emu.opts.setupErrors, name)
      ? emu.opts.setupErrors[name]
      : undefined;
    const app = newAppRecord(
      {
        id,
        user_id: call.user.id,
        name,
        subdomain,
        env_keys: Object.keys(env).sort(),
        created_at: now,
        // A failed deployment: the setup never finishes.
        setup_ready_at:
          failure === undefined ? emu.opts.now() + emu.opts.setupDelayMs : Number.MAX_SAFE_INTEGER,
        archive_sha256: up.sha256,
        archive_bytes: up.bytes,
      },
      m,
    );
    emu.world.apps.push(app);
    emu.world.deployments.push({
      id: emu.rng.uuid(),
      app_id: id,
      created_at: now,
      commit: up.sha256,
      ...(failure === undefined ? {} : { error: failure }),
    });
    return { id };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const listDeployments: Handler = (emu, { user, params }) => {
  const app = owned(emu.world.apps, params.app_id, user, "app");
  return emu.world.deployments
    .filter((d) => d.app_id === app.id)
    .map((d) => ({
      id: d.id,
      app_id: d.app_id,
      created_at: iso(d.created_at),
      error: d.error ?? "",
      owner: user.name,
      repo: "upload",
      branch: "main",
      commit: d.commit,
    }));
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
  listDeployments,
  deleteApp,
  listRuntimeVersions: (emu, call) => {
    const language = queryValue("listRuntimeVersions", "language", call);
    return emu.world.runtime_versions.filter((v) => !language || v.language === language);
  },
  ...domainRoutes,
  ...dashboardRoutes,
  ...toggleRoutes,
};

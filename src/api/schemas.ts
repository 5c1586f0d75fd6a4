import { z } from "zod";
import { assertType, type SameShape } from "../base";
import type * as T from "./types";

/*
 * zod schemas of the wire shapes in types.ts (internal: the public declarations use the interfaces). Tolerant where the spec is silent:
 * fields whose presence is "not shown" are optional, nullable where the spec says so, and unknown
 * extra fields pass through (a newer service may add some).
 */

const dateTime = z.string();

/*
 * Usage series can hold thousands of points per list entry; zod's per-element array checks cost
 * more than the JSON parse itself there, so one plain loop checks them instead.
 */
const numberSeries = z.custom<number[]>(
  (v) => Array.isArray(v) && v.every((x) => typeof x === "number"),
  { message: "expected an array of numbers" },
);
const nullableDateTime = dateTime.nullable();

export const projectInfoSchema = z.looseObject({
  ram: numberSeries,
  vcpu: numberSeries,
  storage: z.number(),
  network_receive: numberSeries,
  network_send: numberSeries,
});

export const projectSchema = z.looseObject({
  id: z.string(),
  user_id: z.string().optional(),
  workspace_id: z.string().optional(),
  ram: z.number().int().optional(),
  vcpu: z.number().int().optional(),
  name: z.string(),
  is_app: z.boolean().optional(),
  project_type: z.enum(["app", "database", "virtual_machine"]).optional(),
  blocked_until: nullableDateTime.optional(),
  blocked_reason: z.string().nullable().optional(),
  setup: z.boolean().optional(),
  created_at: nullableDateTime.optional(),
  auto_backup: z.boolean().optional(),
});

export const databaseServiceSchema = projectSchema.extend({
  service_type: z.enum(["postgres", "mysql", "mongo", "redis"]),
  visualizer: z.boolean().optional(),
  size: z.number().int().optional(),
  last_setup_at: nullableDateTime.optional(),
});

export const replicaStatusSchema = z.enum(["not_found", "pending", "running", "stopped"]);

export const databaseResponseSchema = z.looseObject({
  database: databaseServiceSchema,
  project_info: projectInfoSchema,
  replica_status: z.array(replicaStatusSchema),
});

// Spec §2.5: which summary fields are always present is not shown, so only `id` is required.
export const appSummarySchema = z.looseObject({
  // <declarations: appSummarySchema> written by `npm run declarations` from api/types.ts
  id: z.string(),
  user_id: z.string().optional(),
  ram: z.number().int().optional(),
  vcpu: z.number().int().optional(),
  name: z.string().optional(),
  is_app: z.boolean().optional(),
  blocked_until: nullableDateTime.optional(),
  setup: z.boolean().optional(),
  created_at: nullableDateTime.optional(),
  last_setup_at: nullableDateTime.optional(),
  subdomain: z.string().nullable().optional(),
  entrypoint: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  custom_command: z.string().nullable().optional(),
  custom_domain: z.string().nullable().optional(),
  // </declarations>
});

export const appListEntrySchema = z.looseObject({
  app: appSummarySchema,
  project_info: projectInfoSchema.optional(),
});

export const deploymentSchema = z.looseObject({
  id: z.string(),
  app_id: z.string().optional(),
  created_at: nullableDateTime.optional(),
  error: z.string().nullable().optional(),
  owner: z.string().nullable().optional(),
  repo: z.string().nullable().optional(),
  branch: z.string().nullable().optional(),
  commit: z.string().nullable().optional(),
});

export const validationRecordSchema = z.looseObject({
  type: z.string().optional(),
  name: z.string().optional(),
  value: z.string().optional(),
  txt_name: z.string().optional(),
  txt_value: z.string().optional(),
});

export const customHostnameSchema = z.looseObject({
  id: z.string(),
  hostname: z.string(),
  status: z.string(),
  ssl: z
    .looseObject({
      method: z.string().optional(),
      type: z.string().optional(),
      status: z.string().optional(),
      validation_records: z.array(validationRecordSchema).optional(),
    })
    .optional(),
  ownership_verification: validationRecordSchema.optional(),
});

export const attachDomainResponseSchema = z.looseObject({
  message: z.string().optional(),
  custom_hostname: customHostnameSchema,
  cname: z.string(),
});

const seriesSchema = z.array(z.looseObject({}));

export const dashboardDataSchema = z.looseObject({
  rps_timeseries: seriesSchema,
  request_count_series: seriesSchema,
  duration_series: seriesSchema,
  error_series: seriesSchema,
  browser_data: seriesSchema,
  route_series: seriesSchema,
  status_series: seriesSchema,
  top_slow_routes: seriesSchema,
  top_error_routes: seriesSchema,
  average_rps: z.number(),
  total_requests: z.number(),
  average_duration_ms: z.number(),
  total_server_errors_500: z.number(),
});

export const runtimeVersionSchema = z.looseObject({
  language: z.string(),
  version: z.string(),
  recommended: z.boolean(),
  latest: z.boolean(),
});

export const messageSchema = z.looseObject({ message: z.string() });
/** Replies to the assumed endpoints: the spec shows no body, so a message is welcome, not required. */
export const optionalMessageSchema = z.looseObject({ message: z.string().optional() });
export const errorBodySchema = z.looseObject({ error: z.string() });
export const connectionInfoSchema = z.looseObject({
  connection_url: z.string(),
  visualizer_url: z.string().nullable().optional(),
});
export const backupDownloadSchema = z.looseObject({ url: z.string() });
export const createdAppSchema = z.looseObject({ id: z.string() });

/* The public interfaces (types.ts) and these schemas describe the same shapes. */
assertType<SameShape<z.infer<typeof projectInfoSchema>, T.ProjectInfo>>(true);
assertType<SameShape<z.infer<typeof projectSchema>, T.Project>>(true);
assertType<SameShape<z.infer<typeof databaseServiceSchema>, T.DatabaseService>>(true);
assertType<SameShape<z.infer<typeof replicaStatusSchema>, T.ReplicaStatus>>(true);
assertType<SameShape<z.infer<typeof databaseResponseSchema>, T.DatabaseResponse>>(true);
assertType<SameShape<z.infer<typeof appSummarySchema>, T.AppSummary>>(true);
assertType<SameShape<z.infer<typeof appListEntrySchema>, T.AppListEntry>>(true);
assertType<SameShape<z.infer<typeof deploymentSchema>, T.Deployment>>(true);
assertType<SameShape<z.infer<typeof validationRecordSchema>, T.ValidationRecord>>(true);
assertType<SameShape<z.infer<typeof customHostnameSchema>, T.CustomHostname>>(true);
assertType<SameShape<z.infer<typeof attachDomainResponseSchema>, T.AttachDomainResponse>>(true);
assertType<SameShape<z.infer<typeof dashboardDataSchema>, T.DashboardData>>(true);
assertType<SameShape<z.infer<typeof runtimeVersionSchema>, T.RuntimeVersion>>(true);
assertType<SameShape<z.infer<typeof messageSchema>, T.Message>>(true);
assertType<SameShape<z.infer<typeof optionalMessageSchema>, T.OptionalMessage>>(true);
assertType<SameShape<z.infer<typeof errorBodySchema>, T.ErrorBody>>(true);
assertType<SameShape<z.infer<typeof connectionInfoSchema>, T.ConnectionInfo>>(true);
assertType<SameShape<z.infer<typeof backupDownloadSchema>, T.BackupDownload>>(true);
assertType<SameShape<z.infer<typeof createdAppSchema>, T.CreatedApp>>(true);

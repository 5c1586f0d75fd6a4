import type { EndpointName } from "../../api/wire";
import { iso, minutesQuery, owned, type Handler } from "../context";
import { EmulatorReplyError } from "../errors";
import { series } from "../rng";
import { projectInfo } from "./usage";

/* Read-only numbers about an app: the analytics dashboard and the usage metrics. */

const getDashboardData: Handler = (emu, call) => {
  const app = owned(emu.world.apps, call.params.app_id, call.user, "app");
  const minutes = minutesQuery("getDashboardData", call);
  if (!app.analytics_enabled) {
    throw new EmulatorReplyError(
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

const getAppMetrics: Handler = (emu, call) => {
  const app = owned(emu.world.apps, call.params.app_id, call.user, "app");
  return projectInfo(app.id, minutesQuery("getAppMetrics", call));
};

export const dashboardRoutes: Partial<Record<EndpointName, Handler>> = {
  getDashboardData,
  getAppMetrics,
};

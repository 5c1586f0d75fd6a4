import type { HostingClient } from "../../api/wire";
import { isAnalyticsOff } from "../../shared";
import { findApp } from "../app-directory";
import { ignoreNotFound, type ResourceHandler } from "../resource-handler";
import { fieldLists } from "../fields";
import { analyticsFields } from "./fields";
import { analyticsInputSchema } from "./schema";

/**
 * Whether analytics is on, read the only way the spec allows: the dashboard answers when it is
 * on and refuses (400) when it is off (spec §4.1 rule 2). Only the "not enabled" refusal means
 * off; any other failure is an error, never drift.
 */
export async function analyticsEnabled(client: HostingClient, appId: string): Promise<boolean> {
  try {
    await client.getDashboardData(appId, { minutes: 1 });
    return true;
  } catch (err) {
    if (isAnalyticsOff(err)) return false;
    throw new Error(
      `could not read whether analytics is on for app ${appId}: the dashboard did not answer ` +
        `with data nor with "analytics is not enabled" (${(err as Error).message})`,
      { cause: err },
    );
  }
}

export const analyticsHandler: ResourceHandler<typeof analyticsInputSchema> = {
  schema: analyticsInputSchema,
  replaceOnChange: fieldLists(analyticsFields).replaceOnChange,

  async create(client, i) {
    await client.setAnalytics(i.appId, i.enabled);
    return { id: i.appId, outs: { ...i } };
  },

  async read(client, _id, props) {
    const appId = props.appId;
    if (!(await findApp(client, appId))) return undefined;
    const enabled = await analyticsEnabled(client, appId);
    return { props: { ...props, enabled }, inputs: { appId, enabled } };
  },

  async update(client, _id, olds, news) {
    if (olds.enabled !== news.enabled) await client.setAnalytics(news.appId, news.enabled);
    return { ...news };
  },

  // Deleting the resource restores the platform default: analytics off.
  async delete(client, _id, props) {
    return ignoreNotFound(client.setAnalytics(props.appId, false));
  },
};

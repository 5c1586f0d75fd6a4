import type { HostingClient } from "../../api/wire";
import { findApp } from "../app-directory";
import { ignoreNotFound, type ResourceHandler } from "../resource-handler";
import { fieldLists } from "../fields";
import { webAccessFields } from "./fields";
import { webAccessInputSchema } from "./schema";

const apply = (client: HostingClient, appId: string, enabled: boolean) =>
  enabled ? client.enableWebAccess(appId) : client.disableWebAccess(appId);

/*
 * The API reports no web-access state, so a refresh can only tell that the app is gone; the
 * enabled flag is what this stack last set.
 */
export const webAccessHandler: ResourceHandler<typeof webAccessInputSchema> = {
  schema: webAccessInputSchema,
  replaceOnChange: fieldLists(webAccessFields).replaceOnChange,

  async create(client, i) {
    await apply(client, i.appId, i.enabled);
    return { id: i.appId, outs: { ...i } };
  },

  async read(client, _id, props) {
    if (!(await findApp(client, props.appId))) return undefined;
    return { props, inputs: { appId: props.appId, enabled: props.enabled } };
  },

  async update(client, _id, olds, news) {
    if (olds.enabled !== news.enabled) await apply(client, news.appId, news.enabled);
    return { ...news };
  },

  // Deleting the resource restores the platform default: web access on.
  async delete(client, _id, props) {
    return ignoreNotFound(client.enableWebAccess(props.appId));
  },
};

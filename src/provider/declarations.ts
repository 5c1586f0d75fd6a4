import { backupDeletionFields, databaseSetupRetryFields, vmStartFields } from "./actions/fields";
import { appFields } from "./app/fields";
import { customDomainFields } from "./custom-domain/fields";
import type { Fields } from "./fields";
import type { ResourceKind } from "./resource-kind";
import { analyticsFields, webAccessFields } from "./toggle-fields";

/** What the reference pages say of a resource beyond its fields. */
export interface ResourceDeclaration {
  fields: Fields;
  /** How an existing object comes under the stack (dynamic resources have no `pulumi import`). */
  adoption: string;
}

const declaring =
  "Declaring the resource takes over the setting as it is: create sets it to the program's " +
  "value, so there is nothing to import.";
const action =
  "Nothing to adopt: an action leaves nothing on the service that a stack could hold. " +
  "Declaring the resource runs the action on the next `pulumi up`.";

/** @internal Every resource kind's declaration (the reference docs are generated from it). */
export const resourceDeclarations = {
  App: {
    fields: appFields,
    adoption:
      "Dynamic resources cannot be imported with `pulumi import`. Set `adoptId` to the id of an " +
      "existing app (e.g. from `getApp`): create takes it over instead of making one, and its " +
      "live settings show as outputs, so the next preview shows any difference from the " +
      "program. `adoptId` is read only at create; from then on the program is the truth. " +
      "With the native plugin: `pulumi import hosting:index:App <name> <app id>`.",
  },
  CustomDomain: {
    fields: customDomainFields,
    adoption:
      "Dynamic resources cannot be imported with `pulumi import`. Declare the domain that is " +
      "already attached: attaching it again answers with its current state, so create takes " +
      "it over. With the native plugin: `pulumi import hosting:index:CustomDomain <name> " +
      "<hostname>`.",
  },
  AppWebAccess: { fields: webAccessFields, adoption: declaring },
  AppAnalytics: { fields: analyticsFields, adoption: declaring },
  VmStart: { fields: vmStartFields, adoption: action },
  DatabaseSetupRetry: { fields: databaseSetupRetryFields, adoption: action },
  BackupDeletion: { fields: backupDeletionFields, adoption: action },
} satisfies Record<ResourceKind, ResourceDeclaration>;

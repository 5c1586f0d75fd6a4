import type { z } from "zod";
import { analyticsFields } from "./analytics/fields";
import { analyticsInputSchema } from "./analytics/schema";
import { backupDeletionFields } from "./backup-deletion/fields";
import { backupDeletionInputSchema } from "./backup-deletion/schema";
import { databaseSetupRetryFields } from "./database-setup-retry/fields";
import { databaseSetupRetryInputSchema } from "./database-setup-retry/schema";
import { appFields } from "./app/fields";
import { appInputSchema } from "./app/schema";
import { customDomainFields } from "./custom-domain/fields";
import { customDomainInputSchema } from "./custom-domain/schema";
import type { Fields } from "./fields";
import type { ResourceKind } from "./resource-kind";
import { vmStartFields } from "./vm-start/fields";
import { vmStartInputSchema } from "./vm-start/schema";
import { webAccessFields } from "./web-access/fields";
import { webAccessInputSchema } from "./web-access/schema";

/** What the reference pages say of a resource beyond its fields. */
export interface ResourceDeclaration {
  fields: Fields;
  /** How an existing object comes under the stack (dynamic resources have no `pulumi import`). */
  adoption: string;
  /** The rules `check` applies: the pages' limits are generated from them. */
  inputs: z.ZodObject;
  /** Further sections of the page: a heading and its paragraphs. */
  notes?: ReadonlyArray<{ heading: string; text: readonly string[] }>;
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
    inputs: appInputSchema,
    notes: [
      {
        heading: "Source and hosting.json",
        text: [
          "The settings travel to the service in a `hosting.json` at the archive's root, which " +
            "the App writes from its inputs. A source that has its own `hosting.json` is refused " +
            "unless it agrees with the inputs: remove it (the App writes it) or make the inputs match.",
          "A `source` path that does not exist is refused where the program builds the App, " +
            "with the nearest name in its folder.",
        ],
      },
      {
        heading: "What a replacement takes with it",
        text: [
          "A replaced App is a new app: a new `id`, a new platform subdomain unless `subdomain` " +
            "is pinned, and its `CustomDomain`, `AppWebAccess` and `AppAnalytics` are replaced " +
            "too (their `appId` changes). The custom domain is removed from the old app, then " +
            "attached to the new one, with new validation records (see CustomDomain). With " +
            "`subdomain` pinned the old app is deleted first.",
        ],
      },
    ],
    adoption:
      "Dynamic resources cannot be imported with `pulumi import`. Set `adoptId` to the id of an " +
      "existing app (e.g. from `getApp`): create takes it over instead of making one, and its " +
      "live settings show as outputs, so the next preview shows any difference from the " +
      "program. `adoptId` is read only at create; from then on the program is the truth. " +
      "With the native plugin: `pulumi import hosting:index:App <name> <app id>`.",
  },
  CustomDomain: {
    fields: customDomainFields,
    inputs: customDomainInputSchema,
    notes: [
      {
        heading: "One custom domain per app",
        text: [
          "An app takes one custom domain, and a domain is on one app at a time. Two " +
            "CustomDomains given the same `app.id` are refused when the program builds them " +
            "(during `pulumi preview`); two that reach the same app another way get the " +
            "service's 409 at `up`, with the same advice. For more hostnames, give each its own " +
            "App, or redirect them at your DNS or CDN.",
        ],
      },
      {
        heading: "DNS records",
        text: [
          "`dnsRecords` lists each record once, with `purpose`: `routing` (the CNAME of " +
            "`domain` to the edge target, `cname`), `ownership` (a TXT record proving you hold " +
            "the domain) and `ssl` (TXT records for the certificate). Internationalised domains " +
            "are given in their punycode form (`www.xn--p1ai.example`), lower-cased.",
          "The edge target is known only from the service's answer: the spec has no endpoint " +
            "that tells it before a domain is attached, and attaching requires the CNAME to " +
            "exist already. The refusal of a domain that does not point at the edge names the " +
            "target; once attached, `cname` holds it.",
        ],
      },
      {
        heading: "Records change when the domain is attached again",
        text: [
          "Each attachment gets new ownership and SSL values: any App replacement (one env " +
            "var is enough) re-attaches the domain, and its TXT records change. With DNS managed " +
            "in the same stack, create the records from `dnsRecords` (an Output), so the same " +
            "`up` updates them; keep `waitForActive: false` there, or the wait for activation " +
            "runs before the new records exist and lasts until `activeTimeoutSeconds`. Wait for " +
            "activation in a later step (a second `up` with `waitForActive: true`, or " +
            "`getApp` in a check). With DNS managed elsewhere, expect to update the TXT records " +
            "after every App replacement.",
        ],
      },
    ],
    adoption:
      "Dynamic resources cannot be imported with `pulumi import`. Declare the domain that is " +
      "already attached: attaching it again answers with its current state, so create takes " +
      "it over. With the native plugin: `pulumi import hosting:index:CustomDomain <name> " +
      "<hostname>`.",
  },
  AppWebAccess: { fields: webAccessFields, adoption: declaring, inputs: webAccessInputSchema },
  AppAnalytics: { fields: analyticsFields, adoption: declaring, inputs: analyticsInputSchema },
  VmStart: { fields: vmStartFields, adoption: action, inputs: vmStartInputSchema },
  DatabaseSetupRetry: {
    fields: databaseSetupRetryFields,
    adoption: action,
    inputs: databaseSetupRetryInputSchema,
  },
  BackupDeletion: {
    fields: backupDeletionFields,
    adoption: action,
    inputs: backupDeletionInputSchema,
  },
} satisfies Record<ResourceKind, ResourceDeclaration>;

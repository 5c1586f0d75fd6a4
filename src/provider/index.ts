/*
 * The provider room's door, for the native plugin (src/native/), which serves these resources
 * over Pulumi's provider protocol: the declarations and handlers, and what `pulumi import` and
 * the package schema read of them. The package root (src/index.ts) opens the resource classes
 * and handlers itself, to choose what loads at once and what on first use.
 */
export { resourceDeclarations, type ResourceDeclaration } from "./declarations";
export { connectionOf, nativeHandlers, type HeldConnection, type ResourceKind } from "./handlers";
export { ResourceInitError } from "./errors";
export { NAMING_INPUT, URN_INPUT } from "./urn-input";
export { withOwner } from "./ownership";
export type { Naming } from "./resource-handler";
export { accountField, outputsFrom, type Field, type Fields, type SameKeys } from "./fields";
export { findApp, listAppsShared } from "./app-directory";
export { sameValue } from "./stable-json";
export { analyticsEnabled } from "./analytics/handler";
export { appFields } from "./app/fields";
export type { AppRuntimeOutput } from "./app/resource";
export type { CustomDomainSsl, DnsRecord, ValidationRecordOutput } from "./custom-domain/resource";

import { createHash } from "node:crypto";
import { HostingInputError } from "../../api/wire";
import type { Naming, Props } from "../resource-handler";

/*
 * An App without `name` is named as Pulumi providers name resources: its Pulumi resource name
 * plus a suffix, kept in state from then on. The suffix is a digest of the resource's URN (the
 * project, the stack, the type, the parents and the name), not a random draw: every stack of one
 * program gets its own name, and the same resource of the same stack gets the same one in every
 * process. So an app that carries an App's generated name was made by that very App: a create
 * interrupted before Pulumi recorded it, or an app kept by `retainOnDelete`. Another stack's app
 * never carries it (unless a program pins that exact name).
 */

const APP_NAME_MAX = 63;
const SUFFIX = 7;

/** The Pulumi resource name in a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
function logicalName(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

/** The name an App of this URN is given when the program sets none. */
export function generatedName(urn: string): string {
  const base =
    logicalName(urn)
      .replace(/[^A-Za-z0-9 _.-]+/g, "-")
      .replace(/^[^A-Za-z0-9]+/, "")
      .slice(0, APP_NAME_MAX - SUFFIX - 1)
      .replace(/[ _.-]+$/, "") || "app";
  const digest = createHash("sha256").update("pulumi-hosting app name v1\u0000").update(urn);
  return `${base}-${digest.digest("hex").slice(0, SUFFIX)}`;
}

/** Whether `name` is the one this URN's App is given when the program sets none. */
export function isGeneratedName(name: string, urn: string | undefined): boolean {
  return urn !== undefined && name === generatedName(urn);
}

/**
 * The inputs with `name` filled in when the program sets none: the name in state (an App named
 * before keeps it, whatever named it), else the name `pulumi:autonaming` proposes (native
 * plugin), else the generated one. Without a URN (a program of a release before it sent one)
 * nothing is filled in, and check asks for `name`.
 */
export function withName(news: Props, olds: Props, naming: Naming): Props {
  if (news.name !== undefined) return news;
  if (typeof olds.name === "string") return { ...news, name: olds.name };
  const { urn, proposed } = naming;
  if (proposed?.mode === "disable") {
    throw new HostingInputError(
      "name",
      "name is required: pulumi:autonaming's mode is disabled for this App; set name",
    );
  }
  if (proposed?.name) return { ...news, name: proposed.name };
  return urn === undefined ? news : { ...news, name: generatedName(urn) };
}

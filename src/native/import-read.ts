import type { HostingClient } from "../api/wire";
import { tokenLike } from "../connection";
import { UNKNOWN, validateInputs, type Failure } from "../inputs";
import {
  analyticsEnabled,
  appFields,
  findApp,
  listAppsShared,
  outputsFrom,
  resourceDeclarations,
  sameValue,
  type Fields,
  type ResourceKind,
} from "../provider";

type Props = Record<string, unknown>;
type Found = { props: Props; inputs: Props } | undefined;

/*
 * `pulumi import` reads with the id alone (no inputs, no state). Each kind finds its object from
 * the id, under the provider's default account, and reports the inputs a program would have to
 * declare to hold it as it is. Only reads: the engine also reads like this during the import's
 * preview.
 */

/** How one kind is imported. */
export type ImportReader =
  | {
      /** What the id names, for the message when nothing has it, e.g. "app". */
      what: string;
      /** The object, or undefined when the account holds none by that id. */
      find(client: HostingClient, id: string): Promise<Found>;
      /**
       * Required inputs the service does not show, each with the placeholder the import puts in
       * the generated code and what belongs there (undefined: no placeholder, Pulumi writes the
       * type's zero value). The import's own check passes without them; a program's check
       * refuses a placeholder.
       */
      unread: Readonly<Record<string, { placeholder: string; belongs: string } | undefined>>;
    }
  | { refused: string };

/**
 * An App's `source` in imported code: the service cannot show an app's source, so the generated
 * code says what goes there, and a check that finds it left in names it.
 */
const SOURCE_PLACEHOLDER = "<the folder or .zip of this app's code>";

/** The App's settings the service reports (each declared `wire` input it reads back). */
function appInputs(app: unknown): Props {
  const outs = outputsFrom(appFields, app);
  const inputs: Props = {};
  for (const [key, f] of Object.entries(appFields as Fields)) {
    const v = outs[key];
    if (f.wire !== undefined && f.from !== undefined && v !== undefined && v !== null && v !== "") {
      inputs[key] = v;
    }
  }
  return inputs;
}

const action = {
  refused:
    "an action cannot be imported: it leaves nothing on the service to hold; declaring it runs " +
    "the action on the next `pulumi up`",
};

export const importReaders = {
  App: {
    what: "app",
    async find(client, id) {
      const app = await findApp(client, id);
      if (!app) return undefined;
      const inputs = { ...appInputs(app), source: SOURCE_PLACEHOLDER };
      return { props: { ...inputs, ...outputsFrom(appFields, app) }, inputs };
    },
    unread: {
      source: {
        placeholder: SOURCE_PLACEHOLDER,
        belongs:
          "the folder or .zip of the app's code (a relative path is taken from the project's folder)",
      },
    },
  },
  CustomDomain: {
    what: "custom domain (by hostname)",
    async find(client, id) {
      // By hostname: the app that carries it is the one the domain is attached to.
      const domain = id.toLowerCase();
      const apps = await listAppsShared(client);
      const app = apps.find((a) => (a.app.custom_domain ?? "").toLowerCase() === domain)?.app;
      if (!app) return undefined;
      const inputs = { appId: app.id, domain };
      return { props: { ...inputs, hostname: domain }, inputs };
    },
    unread: {},
  },
  AppAnalytics: {
    what: "app",
    async find(client, id) {
      if (!(await findApp(client, id))) return undefined;
      const inputs = { appId: id, enabled: await analyticsEnabled(client, id) };
      return { props: inputs, inputs };
    },
    unread: {},
  },
  AppWebAccess: {
    what: "app",
    async find(client, id) {
      if (!(await findApp(client, id))) return undefined;
      return { props: { appId: id }, inputs: { appId: id } };
    },
    // The API shows no web-access state: the program says it, and the first `up` sets it.
    unread: { enabled: undefined },
  },
  VmStart: action,
  DatabaseSetupRetry: action,
  BackupDeletion: action,
} satisfies Record<ResourceKind, ImportReader>;

const unreadOf = (kind: ResourceKind) => {
  const reader: ImportReader = importReaders[kind];
  return "unread" in reader ? reader.unread : {};
};

/**
 * Why `pulumi import` found nothing: the id, and the account it was looked for under (by its
 * API URL: the token is never shown, nor an id that looks like one).
 */
export function notFound(what: string, id: string, apiUrl: string): string {
  const shown = tokenLike(id)
    ? "(the id given, not shown: it looks like a token)"
    : JSON.stringify(id);
  return (
    `no ${what} ${shown} under this provider's account (API ${apiUrl}): ` +
    "check the id; an object of another account is imported with a provider of that account " +
    "(`--provider`)."
  );
}

/** A placeholder an import wrote, still in a program's inputs: a failure naming the property. */
export function placeholderFailures(kind: ResourceKind, news: Props): Failure[] {
  return Object.entries(unreadOf(kind)).flatMap(([property, unread]) =>
    unread !== undefined && news[property] === unread.placeholder
      ? [
          {
            property,
            reason: `${property} is still the placeholder \`pulumi import\` wrote: set it to ${unread.belongs}.`,
          },
        ]
      : [],
  );
}

/**
 * The import's own check. After its read, the engine checks the inputs the read answered (as
 * the old and the new inputs) and warns of "a bug in the provider" at any failure, though the
 * inputs the service does not show cannot be there. That check, and only it, passes without
 * them: it runs in the process that answered the read, with exactly those inputs. A program's
 * check (a later process, or other inputs) gets the full check.
 */
export class ImportChecks {
  readonly #read = new Map<string, Props>();

  /** The inputs an import's read answered for `urn`. */
  remember(urn: string, inputs: Props): void {
    this.#read.set(urn, inputs);
  }

  /** The failures of the import's own check, or undefined when this check is not it. */
  failuresOfOwnCheck(kind: ResourceKind, urn: string, olds: Props, news: Props) {
    const read = this.#read.get(urn);
    // `pulumi import --properties` checks a part of what was read.
    const part = (p: Props) => read && Object.entries(p).every(([k, v]) => sameValue(read[k], v));
    if (!read || !sameValue(read, olds) || !part(news)) return undefined;
    // Unknown to validateInputs: not required, not checked.
    const unread = Object.keys(unreadOf(kind)).map((k) => [k, UNKNOWN]);
    const inputs = { ...news, ...Object.fromEntries(unread) };
    return validateInputs(resourceDeclarations[kind].inputs, inputs).failures;
  }
}

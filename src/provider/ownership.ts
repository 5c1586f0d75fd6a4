import type { HostingClient } from "../api/wire";
import {
  describeOwner,
  OWNER_KEY,
  recordedOwner,
  reportProgress,
  type Connection,
  type Owner,
} from "../connection";
import { OtherAccountError } from "./errors";
import { URN_INPUT } from "./urn-input";
import type { Props } from "./resource-handler";

/*
 * Whose object a resource holds (connection/owner.ts has the rule). Create records the account
 * it made the object under; read and delete reach the object through that account when any
 * configured connection acts for it, and otherwise never take "not found" as "gone"; diff turns a
 * change of account into a replacement.
 */

const accountOf = (props: Props) => (typeof props.account === "string" ? props.account : undefined);

/** How a resource's object is reached now. */
export interface Reach {
  client: HostingClient;
  /** Set when the object was recorded under an account no configured connection acts for. */
  foreign?: { recorded: Owner; current: Owner | undefined };
}

/**
 * The client to reach a resource's object with: its own account's when that is the account the
 * object was made under (or none was recorded, as in a stack of an earlier release), else a
 * configured connection that acts for the recorded account, else its own, marked `foreign`.
 */
export function reach(conn: Connection, props: Props): Reach {
  const recorded = recordedOwner(props);
  const account = accountOf(props);
  if (recorded === undefined) return { client: conn.client(account) };
  const current = conn.owner(account);
  if (current?.account === recorded.account) return { client: conn.client(account) };
  const other = conn.accountActingFor(recorded);
  if (other) return { client: conn.client(other.account) };
  return { client: conn.client(account), foreign: { recorded, current } };
}

/** `out` with the owner `state` records, else `owner` (if known). */
export function withOwner(out: Props, state: Props, owner: Owner | undefined): Props {
  const kept = recordedOwner(state) ?? owner;
  return kept === undefined ? out : { ...out, [OWNER_KEY]: kept };
}

/** The owner a client made under `account` records. */
export function ownerNow(conn: Connection, props: Props): Owner | undefined {
  return conn.owner(accountOf(props));
}

/**
 * Whether the resource's object would move to another account: recorded under one, the
 * resource's account now acts for another. Unknown (nothing recorded, or not configured): false.
 */
export function ownerMoved(conn: Connection, olds: Props, news: Props): boolean {
  const recorded = recordedOwner(olds);
  const now = ownerNow(conn, news);
  if (recorded === undefined || now === undefined || recorded.account === now.account) return false;
  if (conn.accountActingFor(recorded) === null) {
    reportProgress(
      `${what(olds)} was made under ${describeOwner(recorded)}, and its account now acts for ` +
        `${describeOwner(now)}: it is replaced (made again under the new account). Deleting the ` +
        `old one needs a connection of the old account: ${KEEP_OLD_ACCOUNT}`,
    );
  }
  return true;
}

const KEEP_OLD_ACCOUNT =
  "keep its token configured under any name, e.g. `pulumi config set --secret --path " +
  "hosting:accounts.previous.token <the old account's token>` (with `hosting:accounts.previous." +
  "apiUrl` if its URL differs); the provider uses whichever configured connection acts for it";

function what(props: Props): string {
  const urn = props[URN_INPUT];
  return typeof urn === "string" ? `the object of ${urn}` : "this resource's object";
}

/** The refusal for an object of another account that could not be found under this one. */
export function otherAccountError(id: string, props: Props, f: NonNullable<Reach["foreign"]>) {
  const now = f.current ? describeOwner(f.current) : "an account that is not configured";
  const urn = props[URN_INPUT];
  const forget =
    typeof urn === "string" ? `\`pulumi state delete '${urn}'\`` : "`pulumi state delete <urn>`";
  return new OtherAccountError(
    `${id} was made under ${describeOwner(f.recorded)}, and this stack now reaches the service as ` +
      `${now}, which does not find it: that does not mean it is gone, so it stays in the stack. ` +
      `To manage it, ${KEEP_OLD_ACCOUNT}. If you deleted it yourself, remove it from the stack ` +
      `with ${forget}.`,
  );
}

import type * as pulumi from "@pulumi/pulumi";

/** The `account` input every resource takes. */
export interface AccountInput {
  /**
   * A named account from stack config (`hosting:accounts.<name>.apiUrl` / `.token`) or the
   * environment (`HOSTING_<NAME>_API_URL` / `HOSTING_<NAME>_TOKEN`); unset means the default
   * `hosting:apiUrl` / `hosting:token`. Only the name is stored in state. Changing it replaces
   * the resource (created with the new account, deleted with the old one, which must still be
   * configured), unless both names act for the same account (the token's subject).
   */
  account?: pulumi.Input<string>;
}

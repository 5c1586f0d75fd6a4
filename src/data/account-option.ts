import type * as pulumi from "@pulumi/pulumi";

/** The `account` argument of every data source and action function. */
export interface AccountOption {
  /**
   * A named account from stack config (`hosting:accounts.<name>.apiUrl` / `.token`) or the
   * environment (`HOSTING_<NAME>_API_URL` / `HOSTING_<NAME>_TOKEN`); unset means the default
   * `hosting:apiUrl` / `hosting:token`.
   */
  account?: string;
}

/** {@link AccountOption} as an Input, for the Output forms of the data sources. */
export interface AccountOptionInput {
  /** A named account, as in {@link AccountOption}; unset means the default account. */
  account?: pulumi.Input<string>;
}

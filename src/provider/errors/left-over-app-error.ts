import { HostingError } from "../../api/wire";

/**
 * A create refused because an app of the same name, made shortly before and held by no resource
 * of the deployment, exists: most likely one an interrupted deployment made. `candidates` lists
 * those apps; the message names them and the ways out.
 */
export class LeftOverAppError extends HostingError {
  constructor(
    message: string,
    readonly candidates: readonly string[],
  ) {
    super(message, "HOSTING_APP_LEFT_OVER");
  }
}

import { HostingError } from "./errors";
import { DEFAULT_RETRY_POLICY, isSafeToRepeat, MAY_HAVE_TAKEN_EFFECT } from "./retry";

/*
 * The facts of a reply lost after a request that is not safe to repeat may have taken effect.
 * The App's create reads them (`lostReply`, `mayHaveTakenEffect`) to decide whether to look for
 * what it created, so they are fields, never parsed back out of the message.
 */

/**
 * Marks the error of a request that is not safe to repeat (a POST or PATCH) as maybe applied,
 * with what to check; the errors of what the policy finds safe to repeat (by method, or by the
 * `operation` that sent it) are returned as they are.
 */
export function markLostReply(
  method: string,
  error: Error,
  hint?: string,
  policy = DEFAULT_RETRY_POLICY,
  operation?: string,
): Error {
  if (isSafeToRepeat(method, policy, operation)) return error;
  const check = hint ?? "check whether it was applied";
  const failure = error.message;
  // V8 writes the stack on first read, from the message of that moment: read it before the
  // message changes, or the advice would be said twice there.
  const stack = error.stack;
  error.message = `${failure}${MAY_HAVE_TAKEN_EFFECT}: ${check} before retrying`;
  if (stack) error.stack = stack.replace(failure, error.message);
  if (error instanceof HostingError) {
    error.mayHaveTakenEffect = true;
    error.lostReply = { failure, check };
  }
  return error;
}

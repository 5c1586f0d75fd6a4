import { z } from "zod";
import { pathParamProblem } from "../api/wire";

/*
 * Rules several resources' inputs share. Messages name the property and the fix, so `check`
 * never shows zod's default wording.
 */

/** An ID that goes into a request path: the client's own rule, applied in check. */
export function idInput(property: string, hint: string) {
  return z.string({ error: `${property} is required: ${hint}` }).superRefine((value, ctx) => {
    const problem = pathParamProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: `${property} ${problem}: ${hint}` });
  });
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A one-line text setting: control characters (newline, tab, NUL, …) are refused. `required` is
 * the message when it is missing, `empty` when it is "", `max` a length limit.
 */
export function textInput(
  property: string,
  o: { required?: string; empty?: string; max?: number } = {},
) {
  let s = z.string({ error: o.required ?? `${property} must be a string` });
  if (o.empty) s = s.min(1, o.empty);
  if (o.max !== undefined) {
    s = s.max(o.max, `${property} must be at most ${o.max} characters (settings are size-limited)`);
  }
  return s.superRefine((value, ctx) => {
    const at = value.search(CONTROL);
    if (at >= 0) {
      const code = value.charCodeAt(at).toString(16).padStart(4, "0");
      ctx.addIssue({
        code: "custom",
        message: `${property} contains a control character (U+${code}) at position ${at}; remove it (settings are one line of text)`,
      });
    }
  });
}

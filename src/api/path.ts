import { HostingInputError } from "./errors";

/**
 * Fills a path template from the endpoint table. Every parameter is percent-encoded, and values
 * that could climb or leave the intended path (empty, `.`, `..`, containing `/` or `\`) are
 * rejected before any request, so an ID can never reach another endpoint.
 */
export function buildPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) {
      throw new HostingInputError(name, `path parameter ${name} is missing`);
    }
    return encodePathParam(name, value);
  });
}

export function encodePathParam(name: string, value: unknown): string {
  const problem = pathParamProblem(value);
  if (problem) throw new HostingInputError(name, `${name} ${problem}`);
  return encodeURIComponent(value as string);
}

/**
 * Why a value cannot be an ID in a path, or undefined when it can. Shared with the resources'
 * `check`, so an ID the client would refuse fails before anything else runs.
 */
export function pathParamProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0) return "must be a non-empty string";
  if (value === "." || value === ".." || /[/\\]/.test(value)) {
    return `${JSON.stringify(value)} is not a valid identifier (no "/", "\\", "." or "..")`;
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
  if (/[\u0000-\u001f\u007f]/.test(value)) return "contains control characters";
  if (LONE_SURROGATE.test(value)) return NOT_WELL_FORMED;
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NOT_WELL_FORMED =
  "is not well-formed Unicode (it holds a lone surrogate); pass the ID as the API gave it";

/** A lone surrogate cannot be sent as UTF-8 (encodeURIComponent would throw a URIError). */
export function assertEncodable(name: string, value: string): void {
  if (LONE_SURROGATE.test(value)) {
    throw new HostingInputError(name, `${name} ${NOT_WELL_FORMED}`);
  }
}

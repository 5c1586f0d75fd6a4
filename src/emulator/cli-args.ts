import { parseArgs, type ParseArgsConfig } from "node:util";
import { distance } from "fastest-levenshtein";
import { EmulatorUsageError } from "./errors";

/*
 * The bin's argument parsing: node's parseArgs, with an answer a person can act on when an
 * option is unknown (the nearest valid one) and a pointer to --help for every usage error.
 */

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The valid option nearest to a misspelt one, when one is near enough to be meant. */
export function nearestOption(given: string, names: readonly string[]): string | undefined {
  const want = given.replace(/^-+/, "").toLowerCase();
  const prefixed = names.filter((name) => want.length > 0 && name.startsWith(want));
  if (prefixed.length === 1) return prefixed[0];
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = distance(want, name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(want.length / 3)) ? best.name : undefined;
}

/** Parses argv strictly; any mistake is a EmulatorUsageError that names the fix and `--help`. */
export function parseCliArgs<O extends Options>(
  command: string,
  args: string[],
  options: O,
): ReturnType<typeof parseArgs<{ args: string[]; options: O }>>["values"] {
  const helpHint = `run ${command} --help for every option`;
  const names = Object.keys(options);
  // A first, lenient pass finds every unknown option, so all of them are named at once.
  const { tokens } = parseArgs({ args, options, strict: false, tokens: true });
  const unknown = tokens.flatMap((t) =>
    t.kind === "option" && !Object.hasOwn(options, t.name) ? [t] : [],
  );
  if (unknown.length > 0) {
    const lines = unknown.map((t) => {
      const near = nearestOption(t.name, names);
      return `unknown option ${t.rawName}${near ? `; did you mean --${near}?` : ""}`;
    });
    throw new EmulatorUsageError(`${lines.join("\n")}\n${helpHint}`);
  }
  try {
    return parseArgs({ args, options, strict: true }).values;
  } catch (err) {
    throw new EmulatorUsageError(`${(err as Error).message}\n${helpHint}`);
  }
}

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./pulumi-parts";

/*
 * The README's text as tests read it: a section, and its fenced code blocks in order. Tests of a
 * recipe run what these give, so the README's words are what is tested, never a copy of them.
 */

/** The whole README. */
export const readmeText = (): string => readFileSync(join(ROOT, "README.md"), "utf8");

/** The README's text from the line `heading` (e.g. "## Install") to the next heading as high. */
export function readmeSection(heading: string): string {
  const readme = readmeText();
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no heading "${heading}"`);
  const level = /^#+/.exec(heading)![0];
  const next = new RegExp(`\\n#{1,${level.length}} `, "g");
  next.lastIndex = start + heading.length + 1;
  const end = next.exec(readme)?.index ?? readme.length;
  return readme.slice(start + 1, end);
}

/** A fenced block: its language, its text, and the file it holds when a "`name`:" line leads it. */
export interface CodeBlock {
  lang: string;
  body: string;
  file?: string;
}

/** The fenced code blocks of `text`, in order. */
export function codeBlocks(text: string): CodeBlock[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => {
    const before = text.slice(0, m.index).trimEnd().split("\n").pop() ?? "";
    const file = /^`([^`\s]+)`:$/.exec(before)?.[1];
    return { lang: m[1], body: m[2], ...(file ? { file } : {}) };
  });
}

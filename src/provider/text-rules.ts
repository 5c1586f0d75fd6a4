import type { z } from "zod";
import { textInput } from "../inputs";
import type { Fields } from "./fields";

/*
 * The check rules of the text inputs a declaration gives limits (`text`), for a kind's schema.ts
 * to put beside the rules it writes. Here, not in fields.ts: a rule is zod, and a program that
 * only declares resources loads fields.ts, never zod.
 */

type TextRule = ReturnType<typeof textInput>;

/** The declared fields with `text` limits, each as the rule schema.ts would write. */
export type TextRules<F extends Fields> = {
  [K in keyof F as F[K] extends { text: object } ? K : never]: F[K] extends { input: "required" }
    ? TextRule
    : z.ZodOptional<TextRule>;
};

export function textRules<F extends Fields>(fields: F): TextRules<F> {
  const rules: Record<string, TextRule | z.ZodOptional<TextRule>> = {};
  for (const [key, f] of Object.entries(fields)) {
    if (f.text === undefined) continue;
    const rule = textInput(key, f.text);
    rules[key] = f.input === "required" ? rule : rule.optional();
  }
  return rules as TextRules<F>;
}

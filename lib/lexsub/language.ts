/**
 * A project's language: a BCP 47 tag (`en`, `de`, `pt-BR`), checked and put in
 * canonical case with `Intl.getCanonicalLocales`. It is the pages' `lang`, the
 * locale answers are case-folded (`foldCase`) and sorted (`collator`) in, and
 * decides the lemma proposer: WordNet for English (`en`, `en-*`) only; other
 * languages keep forms as typed, with the coordinator's lemma table.
 *
 * Pure (no fs, db or next): imported by the browser too.
 */

export const DEFAULT_LANGUAGE = "en";

/** The tag in canonical form (`EN-gb` → `en-GB`), or null when it is not a BCP 47 language tag. */
export function canonicalLanguage(tag: string): string | null {
  const t = tag.trim();
  if (t === "") return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(t);
    return canonical ?? null;
  } catch {
    return null;
  }
}

/** Whether WordNet lemma proposals apply: English (`en`, `en-*`) only. */
export function isEnglish(language: string): boolean {
  const l = language.toLowerCase();
  return l === "en" || l.startsWith("en-");
}

/** Lower case in the language's rules (`İ` in Turkish, `ß` kept in German). */
export function foldCase(s: string, language: string): string {
  try {
    return s.toLocaleLowerCase(language);
  } catch {
    return s.toLowerCase();
  }
}

const collators = new Map<string, Intl.Collator>();

/** A collator for the language (cached): `ä` sorts beside `a` in German, `ñ` after `n` in Spanish. */
export function collator(language: string): Intl.Collator {
  let c = collators.get(language);
  if (!c) {
    c = new Intl.Collator(language);
    collators.set(language, c);
  }
  return c;
}

/** Scripts written right to left (ISO 15924). */
const RTL_SCRIPTS = new Set(["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr", "Mend"]);

/** The direction the language is written in, from its likely script (`ar`, `he`, `fa`, `ur` → rtl). */
export function textDirection(language: string): "ltr" | "rtl" {
  try {
    const script = new Intl.Locale(language).maximize().script;
    return script !== undefined && RTL_SCRIPTS.has(script) ? "rtl" : "ltr";
  } catch {
    return "ltr";
  }
}

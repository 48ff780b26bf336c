/**
 * Further analysis, as the task's own further-analysis scorer did it (paper
 * Tables 3 and 6, and the MAN / RAND subsets of the task website):
 *
 * - NMWT: leave out the items whose target is part of a multiword — ids from an
 *   mwids file (`643  instead of`: the id first on each line) or derived from an
 *   mwgold file (the items with a multiword mode, see `multiwordIds`);
 * - NMWS: score only single-word substitutes, in the gold and in the answers
 *   (a substitute with a space inside is a multiword; an answer's hyphens have
 *   become spaces by then, as in the official scorer);
 * - subsets of lexelts from a word list (MRsamples: `civil;a.man`), kept or left out;
 * - breakdowns per PoS (the lexelt item's last `.x` part) or per lexelt.
 *
 * The options go into the scoring key (`KeyOptions`); breakdowns into the
 * scorer (`groupBy`). Pure.
 */
import { HAS_MODE, modeOf, withoutFirstApostrophe } from "./rules";
import { type Diagnostic, diag, splitLines } from "../../lexsub/diagnostics";
import { type GoldLine } from "../../lexsub/formats/gold";
import { parseLexeltItem } from "../../lexsub/types";

/** A substitute or guess of more than one word (a space between two non-spaces). */
export function isMultiword(s: string): boolean {
  return /\S\s+\S/.test(s);
}

/** The PoS of a lexelt item: its last `.x` part (`stand.n.v` → `v`); "" when none. */
export function posOf(lexelt: string): string {
  const dot = lexelt.lastIndexOf(".");
  return dot < 0 ? "" : lexelt.slice(dot + 1);
}

/** `lemma.pos` of a lexelt item (`stand.n.v` → `stand.v`), the form word lists use; the item itself when unparsable. */
export function lexeltKey(lexelt: string): string {
  const p = parseLexeltItem(lexelt);
  return p ? `${p.lemma}.${p.pos}` : lexelt;
}

export type GroupBy = "pos" | "lexelt";

/** The group a lexelt belongs to for a breakdown. */
export function groupOf(by: GroupBy): (lexelt: string) => string {
  return by === "pos" ? posOf : (l) => l;
}

/**
 * The multiword items of an mwgold file: the ids whose first entry has a count
 * above 1 that no other entry ties (the official scorer's `mwids`).
 */
export function multiwordIds(lines: readonly GoldLine[]): Set<string> {
  const ids = new Set<string>();
  for (const g of lines) if (multiwordMode(g.entries) !== null) ids.add(g.id);
  return ids;
}

/** The multiword mode of mwgold entries (first apostrophe removed), or null. */
export function multiwordMode(entries: readonly { substitute: string; count: number }[]): string | null {
  if (entries.length === 0 || entries[0].count <= 1) return null;
  const counts = entries.map((e) => e.count);
  if ((modeOf(counts, 0, counts.length) & HAS_MODE) === 0) return null;
  return withoutFirstApostrophe(entries[0].substitute);
}

/** Read an id list (mwids): the first token of each non-blank line. */
export function parseIdList(text: string, file: string): { ids: Set<string>; diagnostics: Diagnostic[] } {
  const ids = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const l of splitLines(text)) {
    const m = /^\s*(\S+)/.exec(l.text);
    if (!m) continue;
    if (ids.has(m[1])) diagnostics.push(diag("warning", file, l.line, `id ${m[1]} is listed twice`));
    ids.add(m[1]);
  }
  return { ids, diagnostics };
}

/**
 * Read a word list of lexelts: one per line, as `lemma;pos` with an optional
 * tag (`civil;a.man`, the MRsamples form) or as `lemma.pos`. Returns the
 * `lemma.pos` forms (see `lexeltKey`).
 */
export function parseWordList(text: string, file: string): { lexelts: Set<string>; diagnostics: Diagnostic[] } {
  const lexelts = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const l of splitLines(text)) {
    const t = l.text.trim();
    if (t === "") continue;
    let m = /^([^\s;]+);([a-z])(?:\.\S+)?$/.exec(t);
    if (m) {
      lexelts.add(`${m[1]}.${m[2]}`);
      continue;
    }
    m = /^(\S+\.[a-z])$/.exec(t);
    if (m) {
      lexelts.add(lexeltKey(m[1]));
      continue;
    }
    diagnostics.push(diag("error", file, l.line, `not a word-list line (expected "lemma;pos", "lemma;pos.tag" or "lemma.pos"): ${JSON.stringify(t)}`));
  }
  return { lexelts, diagnostics };
}

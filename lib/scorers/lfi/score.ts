/**
 * Senseval-3 Logic Form Identification (seed 004; ../shared/reference/sister-scorers.md §3).
 *
 * A logic form is a conjunction of predicates `lemma:pos_(args)`, one sentence
 * a line, e.g. `Earth:n_(x1) provide:v_(e1, x1, x2) food:n_(x2) we(x3)`.
 * `;` between arguments counts as `,` (the 2004 task did not separate
 * complements from adjuncts).
 *
 * Matching (a reading, stated in the output):
 * - the k-th predicate with a given `lemma:pos` in the system's sentence aligns
 *   with the k-th one with that `lemma:pos` in the gold's;
 * - aligned predicates compare their arguments slot by slot;
 * - variable names are equal up to one consistent renaming per sentence: a
 *   one-to-one map from the system's variables to the gold's, kind for kind
 *   (x to x, e to e), chosen to make the most arguments correct (among equals,
 *   the one that renames least), so `x7` for `x4` throughout is not an error.
 *
 * Measures: argument level P = correct / arguments given, R = correct / gold
 * arguments; predicate level (a predicate is correct when it is aligned, has
 * the gold's number of arguments and all of them are correct) P and R likewise;
 * sentence level over attempted sentences (a non-empty system line): Sent-A
 * (every argument correct), Sent-P (every predicate correct), Sent-AP (all
 * arguments correct among sentences whose predicates are all correct) and
 * Sent-APSent (all arguments and all predicates correct).
 *
 * Pure: strings in, records out.
 */
import { type Diagnostic, diag, splitLines } from "../../lexsub/diagnostics";
import { ratio } from "../../lexsub/ratio";
import { prfCounts } from "../shared/measures";
import { fixedOrNA, formatTable } from "../shared/table";

export interface LfiPredicate {
  /** As written, e.g. "provide:v_". */
  name: string;
  /** What predicates align by: the name without its trailing "_", e.g. "provide:v". */
  key: string;
  args: string[];
}

interface LfiSentence {
  line: number;
  /** Empty for a blank line (in a system file: a sentence not attempted). */
  predicates: LfiPredicate[];
}

export interface LfiFile {
  file: string;
  sentences: LfiSentence[];
  diagnostics: Diagnostic[];
}

const PREDICATE = /([^\s(),;]+)\s*\(([^()]*)\)/y;

/** One logic form a line; a malformed line is reported and read as blank. */
export function parseLogicForms(text: string, file: string): LfiFile {
  const sentences: LfiSentence[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { line, text: t } of splitLines(text)) {
    const predicates: LfiPredicate[] = [];
    let pos = 0;
    let bad = false;
    while (pos < t.length && !bad) {
      while (pos < t.length && /\s/.test(t[pos])) pos++;
      if (pos >= t.length) break;
      PREDICATE.lastIndex = pos;
      const m = PREDICATE.exec(t);
      if (!m) {
        diagnostics.push(diag("error", file, line, `column ${pos + 1}: expected a predicate "lemma:pos_(arg, ...)", found "${t.slice(pos, pos + 20)}"`));
        bad = true;
        break;
      }
      const inside = m[2].trim();
      const args = inside === "" ? [] : inside.split(/[,;]/).map((a) => a.trim());
      if (args.some((a) => a === "" || /\s/.test(a))) {
        diagnostics.push(diag("error", file, line, `column ${pos + 1}: "${m[0]}" has an empty or malformed argument`));
        bad = true;
        break;
      }
      predicates.push({ name: m[1], key: m[1].replace(/_+$/, ""), args });
      pos = PREDICATE.lastIndex;
    }
    sentences.push({ line, predicates: bad ? [] : predicates });
  }
  return { file, sentences, diagnostics };
}

// ---------------------------------------------------------------------------
// Variable renaming: a maximum-weight one-to-one assignment (Hungarian method).

/** Column chosen for each row of a square matrix, maximising the total. */
function assignMax(weight: number[][]): number[] {
  const n = weight.length;
  if (n === 0) return [];
  const INF = Number.POSITIVE_INFINITY;
  // Minimise cost = -weight with potentials (rows and columns 1-based; 0 is a sentinel).
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(n + 1).fill(0);
  const p = new Array<number>(n + 1).fill(0);
  const way = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Array<number>(n + 1).fill(INF);
    const used = new Array<boolean>(n + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = p[j0];
      let delta = INF;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = -weight[i0 - 1][j - 1] - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  const rowToCol = new Array<number>(n).fill(-1);
  for (let j = 1; j <= n; j++) if (p[j] > 0) rowToCol[p[j] - 1] = j - 1;
  return rowToCol;
}

/** A variable's kind: its letters before the digits ("x" for x12, "e" for e3). */
function kindOf(variable: string): string {
  return /^\D*/.exec(variable)?.[0] ?? "";
}

/** Aligned (system, gold) predicate pairs: k-th occurrence of a lemma:pos with the k-th. */
function alignPredicates(system: readonly LfiPredicate[], gold: readonly LfiPredicate[]): Map<number, number> {
  const goldByKey = new Map<string, number[]>();
  gold.forEach((p, i) => goldByKey.set(p.key, [...(goldByKey.get(p.key) ?? []), i]));
  const taken = new Map<string, number>();
  const pairs = new Map<number, number>();
  system.forEach((p, i) => {
    const k = taken.get(p.key) ?? 0;
    const g = goldByKey.get(p.key)?.[k];
    taken.set(p.key, k + 1);
    if (g !== undefined) pairs.set(i, g);
  });
  return pairs;
}

/** The renaming (system variable → gold variable) that makes the most aligned slots agree. */
function lfiRenaming(system: readonly LfiPredicate[], gold: readonly LfiPredicate[]): Map<string, string> {
  const pairs = alignPredicates(system, gold);
  const sysVars: string[] = [];
  const goldVars: string[] = [];
  const add = (list: string[], v: string) => {
    if (!list.includes(v)) list.push(v);
  };
  for (const p of system) p.args.forEach((a) => add(sysVars, a));
  for (const p of gold) p.args.forEach((a) => add(goldVars, a));
  const n = Math.max(sysVars.length, goldVars.length);
  const together: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const [si, gi] of pairs) {
    const s = system[si].args;
    const g = gold[gi].args;
    for (let k = 0; k < Math.min(s.length, g.length); k++) {
      if (kindOf(s[k]) === kindOf(g[k])) together[sysVars.indexOf(s[k])][goldVars.indexOf(g[k])]++;
    }
  }
  // Most agreeing slots first; among equals keep names unchanged (the bonus never outweighs one slot).
  const big = n + 1;
  const weight = together.map((row, i) => row.map((w, j) => w * big + (i < sysVars.length && j < goldVars.length && sysVars[i] === goldVars[j] ? 1 : 0)));
  const assignment = assignMax(weight);
  const renaming = new Map<string, string>();
  sysVars.forEach((s, i) => {
    const j = assignment[i];
    if (j >= 0 && j < goldVars.length && kindOf(s) === kindOf(goldVars[j])) renaming.set(s, goldVars[j]);
  });
  return renaming;
}

// ---------------------------------------------------------------------------
// Scoring

interface LfiCounts {
  correct: number;
  given: number;
  gold: number;
}

export interface LfiSentenceResult {
  /** Line of the sentence in both files. */
  line: number;
  attempted: boolean;
  arguments: LfiCounts;
  predicates: LfiCounts;
  allArguments: boolean;
  allPredicates: boolean;
  /** System variables renamed to a different gold name. */
  renamed: [string, string][];
  /** System predicates that are not correct, with the gold predicate each aligned with (null: none). */
  wrong: { system: LfiPredicate; gold: LfiPredicate | null }[];
  /** Gold predicates no system predicate aligned with. */
  missing: LfiPredicate[];
}

interface LfiMeasure extends LfiCounts {
  precision: number | null;
  recall: number | null;
}

export interface LfiResult {
  arguments: LfiMeasure;
  predicates: LfiMeasure;
  sentences: {
    gold: number;
    attempted: number;
    sentA: number | null;
    sentP: number | null;
    sentAP: number | null;
    sentAPSent: number | null;
    allArguments: number;
    allPredicates: number;
    allBoth: number;
  };
  detail: LfiSentenceResult[];
  diagnostics: Diagnostic[];
}

export function scoreLfiSentence(system: readonly LfiPredicate[], gold: readonly LfiPredicate[], line = 0): LfiSentenceResult {
  const attempted = system.length > 0;
  const pairs = alignPredicates(system, gold);
  const renaming = lfiRenaming(system, gold);
  const args: LfiCounts = { correct: 0, given: 0, gold: 0 };
  const preds: LfiCounts = { correct: 0, given: system.length, gold: gold.length };
  for (const p of gold) args.gold += p.args.length;
  const wrong: LfiSentenceResult["wrong"] = [];
  const aligned = new Set<number>();
  system.forEach((p, i) => {
    args.given += p.args.length;
    const gi = pairs.get(i);
    if (gi === undefined) {
      wrong.push({ system: p, gold: null });
      return;
    }
    aligned.add(gi);
    const g = gold[gi];
    let ok = 0;
    for (let k = 0; k < Math.min(p.args.length, g.args.length); k++) if (renaming.get(p.args[k]) === g.args[k]) ok++;
    args.correct += ok;
    if (ok === g.args.length && p.args.length === g.args.length) preds.correct++;
    else wrong.push({ system: p, gold: g });
  });
  const missing = gold.filter((_, i) => !aligned.has(i));
  const allArguments = attempted && args.correct === args.given && args.correct === args.gold;
  const allPredicates = attempted && preds.correct === preds.given && preds.correct === preds.gold;
  const renamed = [...renaming].filter(([s, g]) => s !== g);
  return { line, attempted, arguments: args, predicates: preds, allArguments, allPredicates, renamed, wrong, missing };
}

function measure(c: LfiCounts): LfiMeasure {
  const p = prfCounts(c.correct, c.given, c.gold);
  return { ...c, precision: p.precision, recall: p.recall };
}

/** Score a system file against a gold file, sentence i being line i of each. */
function scoreLfi(system: LfiFile, gold: LfiFile): LfiResult {
  const diagnostics: Diagnostic[] = [];
  const sysByLine = new Map(system.sentences.map((s) => [s.line, s]));
  const detail: LfiSentenceResult[] = [];
  const goldLines = new Set<number>();
  for (const g of gold.sentences) {
    goldLines.add(g.line);
    if (g.predicates.length === 0) {
      if (!gold.diagnostics.some((d) => d.line === g.line)) diagnostics.push(diag("warning", gold.file, g.line, "empty gold logic form; the sentence is not scored"));
      continue;
    }
    detail.push(scoreLfiSentence(sysByLine.get(g.line)?.predicates ?? [], g.predicates, g.line));
  }
  for (const s of system.sentences) {
    if (!goldLines.has(s.line) && s.predicates.length > 0) diagnostics.push(diag("warning", system.file, s.line, "no gold sentence on this line; ignored"));
  }
  const sum = (pick: (d: LfiSentenceResult) => LfiCounts, attemptedOnly: boolean): LfiCounts => {
    const c: LfiCounts = { correct: 0, given: 0, gold: 0 };
    for (const d of detail) {
      const x = pick(d);
      c.gold += x.gold;
      if (attemptedOnly && !d.attempted) continue;
      c.correct += x.correct;
      c.given += x.given;
    }
    return c;
  };
  const attempted = detail.filter((d) => d.attempted).length;
  const allArguments = detail.filter((d) => d.allArguments).length;
  const allPredicates = detail.filter((d) => d.allPredicates).length;
  const allBoth = detail.filter((d) => d.allArguments && d.allPredicates).length;
  return {
    arguments: measure(sum((d) => d.arguments, true)),
    predicates: measure(sum((d) => d.predicates, true)),
    sentences: {
      gold: detail.length,
      attempted,
      sentA: ratio(allArguments, attempted),
      sentP: ratio(allPredicates, attempted),
      sentAP: ratio(allBoth, allPredicates),
      sentAPSent: ratio(allBoth, attempted),
      allArguments,
      allPredicates,
      allBoth,
    },
    detail,
    diagnostics,
  };
}

/** Parse two texts and score them; both files' diagnostics come back together. */
export function scoreLfiTexts(system: { name: string; text: string }, gold: { name: string; text: string }): LfiResult {
  const s = parseLogicForms(system.text, system.name);
  const g = parseLogicForms(gold.text, gold.name);
  const r = scoreLfi(s, g);
  return { ...r, diagnostics: [...s.diagnostics, ...g.diagnostics, ...r.diagnostics] };
}

// ---------------------------------------------------------------------------
// Output

export const LFI_MATCHING = [
  "matching: predicates align by lemma:pos and order of appearance (the k-th with the k-th); arguments compare by",
  'slot position (";" counts as ","); variables are equal up to one consistent renaming per sentence: the one-to-one',
  "map, kind for kind (x to x, e to e), that makes the most arguments correct. A predicate is correct when all its",
  "arguments are and it has the gold's number of them; sentence measures are over attempted (non-empty) sentences.",
];

function showPredicate(p: LfiPredicate): string {
  return `${p.name}(${p.args.join(", ")})`;
}

function figure(x: number | null, num: number, den: number): string {
  return `${fixedOrNA(x, 3)} (${num}/${den})`;
}

export function formatLfiResult(r: LfiResult, names: { system: string; gold: string }, options: { verbose?: boolean } = {}): string {
  const lines = [`Logic form identification: system "${names.system}" against gold "${names.gold}"`, ...LFI_MATCHING, ""];
  if (options.verbose) {
    for (const d of r.detail) {
      const a = d.arguments;
      const p = d.predicates;
      if (!d.attempted) {
        lines.push(`line ${d.line}: not attempted (${a.gold} gold arguments, ${p.gold} gold predicates)`);
        continue;
      }
      const ok = d.allArguments && d.allPredicates ? "correct" : "not correct";
      lines.push(`line ${d.line}: arguments ${a.correct} correct of ${a.given} given, ${a.gold} gold; predicates ${p.correct} of ${p.given} given, ${p.gold} gold; ${ok}`);
      if (d.renamed.length > 0) lines.push(`  renamed: ${d.renamed.map(([s, g]) => `${s}->${g}`).join(" ")}`);
      for (const w of d.wrong) lines.push(`  wrong:   ${showPredicate(w.system)}${w.gold ? `  gold ${showPredicate(w.gold)}` : "  (no gold predicate to align with)"}`);
      for (const m of d.missing) lines.push(`  missing: ${showPredicate(m)}`);
    }
    lines.push("");
  }
  const s = r.sentences;
  lines.push(
    ...formatTable([
      ["level", "precision", "recall"],
      ["argument", figure(r.arguments.precision, r.arguments.correct, r.arguments.given), figure(r.arguments.recall, r.arguments.correct, r.arguments.gold)],
      ["predicate", figure(r.predicates.precision, r.predicates.correct, r.predicates.given), figure(r.predicates.recall, r.predicates.correct, r.predicates.gold)],
    ]),
    "",
    `sentences: ${s.gold} in the gold, ${s.attempted} attempted`,
    ...formatTable([
      ["Sent-A", figure(s.sentA, s.allArguments, s.attempted), "all arguments correct / attempted"],
      ["Sent-P", figure(s.sentP, s.allPredicates, s.attempted), "all predicates correct / attempted"],
      ["Sent-AP", figure(s.sentAP, s.allBoth, s.allPredicates), "all arguments correct / sentences with all predicates correct"],
      ["Sent-APSent", figure(s.sentAPSent, s.allBoth, s.attempted), "all arguments and predicates correct / attempted"],
    ]),
    "",
  );
  return lines.join("\n");
}

/**
 * SENSEVAL lexical-sample scoring (seed 001; ../shared/reference/sister-scorers.md §1):
 * the scorer2 program of SENSEVAL-2 (S. Cotton, UPenn), re-done so that its text
 * output is byte for byte scorer2's, plus SENSEVAL-1's stingy treatment of
 * disjunctive gold, which scorer2 never had.
 *
 * Files (fields separated by white space):
 *   key       `lexelt instance tag [tag ...]`         several tags = disjunctive gold
 *   answers   `lexelt instance tag[/weight] ... [!! comment]`
 *   sense map `tag [branching parent [branching grandparent ...]]`
 *
 * Faithful to scorer2: single-precision arithmetic (every sum and product is
 * rounded to a float as the C program does), the weight rules (a tag without a
 * weight makes every weight 1; weights summing above 1 are normalised, below 1
 * kept, the rest being an implicit no-guess), the first answer line for an
 * instance counts, and `-v` prints scorer2's trace, including its 0-based
 * "line" numbers. Unlike scorer2: files need not be sorted; a last line without
 * a newline is read; blank lines are skipped; malformed lines (no tags, a weight
 * that is not a non-negative decimal number) are refused with file and line
 * instead of being scored with weight 0 or crashing the program.
 *
 * Pure: strings in, records out.
 */
import { type Diagnostic, diag, splitLines } from "../../lexsub/diagnostics";
import { ratio } from "../../lexsub/ratio";
import { cFixed } from "../shared/table";

/** Round to single precision, as every `float` operation in scorer2 does. */
const f = Math.fround;

export type Granularity = "fine" | "coarse" | "mixed";
/** minimal: disjunctive key instances left out; generous: scorer2's; stingy: SENSEVAL-1's. */
export type Treatment = "minimal" | "generous" | "stingy";
/** product: Σ p(t)·g(t); overlap: Σ min(p(t), g(t)); g(t) = 1/|G| for gold tags G. */
export type StingyReading = "product" | "overlap";

export const GRANULARITIES: readonly Granularity[] = ["fine", "coarse", "mixed"];
export const TREATMENTS: readonly Treatment[] = ["minimal", "generous", "stingy"];

// ---------------------------------------------------------------------------
// Parsing

interface SensevalKeyEntry {
  lexelt: string;
  instance: string;
  tags: string[];
  line: number;
}

export interface SensevalKey {
  file: string;
  entries: SensevalKeyEntry[];
  diagnostics: Diagnostic[];
}

interface SensevalAnswerTag {
  tag: string;
  /** The weight as written after `/`, or null when the tag has none. */
  weight: number | null;
}

interface SensevalAnswerLine {
  line: number;
  lexelt: string;
  instance: string;
  /** null when the line is malformed (an error diagnostic says why); it is then not scored. */
  tags: SensevalAnswerTag[] | null;
}

export interface SensevalAnswers {
  file: string;
  lines: SensevalAnswerLine[];
  diagnostics: Diagnostic[];
}

interface SenseMapEntry {
  tag: string;
  /** Each step up the tree: the number of sub-senses of the parent, and the parent. */
  steps: { branching: number; parent: string }[];
  line: number;
}

export interface SenseMap {
  file: string;
  entries: Map<string, SenseMapEntry>;
  diagnostics: Diagnostic[];
}

const WEIGHT = /^(\d+(\.\d*)?|\.\d+)$/;

function fields(text: string): string[] {
  const t = text.trim();
  return t === "" ? [] : t.split(/\s+/);
}

function instanceId(lexelt: string, instance: string): string {
  return `${lexelt} ${instance}`;
}

export function parseSensevalKey(text: string, file: string): SensevalKey {
  const entries: SensevalKeyEntry[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, number>();
  for (const { line, text: t } of splitLines(text)) {
    const fs = fields(t);
    if (fs.length === 0) continue;
    if (fs.length < 3) {
      diagnostics.push(diag("error", file, line, `expected "lexelt instance tag [tag ...]", found ${fs.length} field${fs.length === 1 ? "" : "s"}`));
      continue;
    }
    const [lexelt, instance, ...tags] = fs;
    const id = instanceId(lexelt, instance);
    const first = seen.get(id);
    if (first !== undefined) {
      diagnostics.push(diag("error", file, line, `instance ${lexelt} ${instance} is already in the key (line ${first}); this line is ignored`));
      continue;
    }
    seen.set(id, line);
    entries.push({ lexelt, instance, tags, line });
  }
  return { file, entries, diagnostics };
}

export function parseSensevalAnswers(text: string, file: string): SensevalAnswers {
  const lines: SensevalAnswerLine[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { line, text: raw } of splitLines(text)) {
    const cut = raw.indexOf("!!");
    const fs = fields(cut >= 0 ? raw.slice(0, cut) : raw);
    if (fs.length === 0) continue;
    const [lexelt, instance = "", ...rest] = fs;
    if (fs.length < 3) {
      diagnostics.push(diag("error", file, line, `expected "lexelt instance tag[/weight] ...", found no sense tag`));
      lines.push({ line, lexelt, instance, tags: null });
      continue;
    }
    const tags: SensevalAnswerTag[] = [];
    let bad = false;
    for (const token of rest) {
      const slash = token.indexOf("/");
      if (slash < 0) {
        tags.push({ tag: token, weight: null });
        continue;
      }
      const tag = token.slice(0, slash);
      const w = token.slice(slash + 1);
      if (tag === "") {
        diagnostics.push(diag("error", file, line, `"${token}" has a weight but no sense tag`));
        bad = true;
      } else if (!WEIGHT.test(w)) {
        diagnostics.push(diag("error", file, line, `malformed weight "${w}" in "${token}" (expected a non-negative decimal number)`));
        bad = true;
      } else {
        tags.push({ tag, weight: Number(w) });
      }
    }
    lines.push({ line, lexelt, instance, tags: bad ? null : tags });
  }
  return { file, lines, diagnostics };
}

export function parseSenseMap(text: string, file: string): SenseMap {
  const entries = new Map<string, SenseMapEntry>();
  const diagnostics: Diagnostic[] = [];
  for (const { line, text: t } of splitLines(text)) {
    const fs = fields(t);
    if (fs.length === 0) continue;
    const [tag, ...rest] = fs;
    if (rest.length % 2 !== 0) {
      diagnostics.push(diag("error", file, line, `expected "tag [branching parent ...]": the fields after the tag must come in pairs`));
      continue;
    }
    const steps: SenseMapEntry["steps"] = [];
    let bad = false;
    for (let i = 0; i < rest.length; i += 2) {
      const b = rest[i];
      if (!WEIGHT.test(b) || Number(b) <= 0) {
        diagnostics.push(diag("error", file, line, `branching factor "${b}" is not a positive number`));
        bad = true;
        break;
      }
      steps.push({ branching: f(Number(b)), parent: rest[i + 1] });
    }
    if (bad) continue;
    const first = entries.get(tag);
    if (first) {
      diagnostics.push(diag("error", file, line, `sense ${tag} is already in the sense map (line ${first.line}); this line is ignored`));
      continue;
    }
    entries.set(tag, { tag, steps, line });
  }
  return { file, entries, diagnostics };
}

// ---------------------------------------------------------------------------
// Scoring

export interface SensevalOptions {
  /** Default fine. Without a sense map, scoring is fine whatever is asked (as scorer2). */
  granularity?: Granularity;
  /** Default generous. */
  treatment?: Treatment;
  /** Reading of stingy; default product. */
  stingy?: StingyReading;
}

interface SensevalGuess {
  tag: string;
  weight: number;
}

export type SensevalEvent =
  | {
      kind: "scored";
      line: number;
      lexelt: string;
      instance: string;
      /** Key tags at this granularity (coarse: mapped, duplicates merged). */
      keyTags: string[];
      /** Answer tags at this granularity with their final weights. */
      guess: SensevalGuess[];
      score: number;
      attempted: number;
    }
  | {
      kind: "unscored";
      line: number;
      lexelt: string;
      instance: string;
      reason: "unknown" | "invalid" | "excluded-or-scored";
    };

export interface SensevalTotals {
  correct: number;
  attempted: number;
  total: number;
  /** correct / attempted, null when nothing was attempted. */
  precision: number | null;
  /** correct / total, null when the key is empty. */
  recall: number | null;
  /** attempted / total (a proportion), null when the key is empty. */
  attemptedShare: number | null;
}

export interface SensevalResult extends SensevalTotals {
  /** The granularity actually used (fine when no sense map was given). */
  granularity: Granularity;
  treatment: Treatment;
  stingy: StingyReading;
  /** One per answer line, in file order. */
  events: SensevalEvent[];
  /** The key instances that count in the total (all but minimal's exclusions). */
  kept: SensevalKeyEntry[];
  diagnostics: Diagnostic[];
}

/** The main sense of a tag: the last field of its sense-map line (the tag itself if absent). */
function coarseTag(tag: string, map: SenseMap | null): string {
  const e = map?.entries.get(tag);
  if (!e || e.steps.length === 0) return tag;
  return e.steps[e.steps.length - 1].parent;
}

/**
 * scorer2's subsumption probability: 1 / (product of the branching factors on
 * the path from `tag` up to `subsumer`), 0 when `subsumer` is not above `tag`.
 */
export function subsumption(subsumer: string, tag: string, map: SenseMap | null): number {
  const e = map?.entries.get(tag);
  if (!e) return 0;
  if (tag === subsumer) return 1;
  let p = f(1);
  for (const step of e.steps) {
    p = f(p * step.branching);
    if (step.parent === subsumer) return f(1 / p);
  }
  return 0;
}

/** Credit one answer tag earns from one key tag. */
function pairCredit(answer: string, key: string, mixed: boolean, map: SenseMap | null): number {
  if (answer === key) return 1;
  if (!mixed) return 0;
  if (subsumption(key, answer, map) > 0) return 1;
  return subsumption(answer, key, map);
}

function keyTagsAt(tags: readonly string[], granularity: Granularity, map: SenseMap | null): string[] {
  if (granularity !== "coarse") return [...tags];
  const out: string[] = [];
  for (const t of tags) {
    const c = coarseTag(t, map);
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

/** Weights and tags of one answer line at this granularity, and the mass attempted. */
function guessAt(tags: readonly SensevalAnswerTag[], granularity: Granularity, map: SenseMap | null): { guess: SensevalGuess[]; attempted: number } {
  let guess: SensevalGuess[];
  let total = f(0);
  if (tags.some((t) => t.weight === null)) {
    guess = tags.map((t) => ({ tag: t.tag, weight: 1 }));
    total = f(tags.length);
  } else {
    guess = tags.map((t) => ({ tag: t.tag, weight: f(t.weight as number) }));
    for (const g of guess) total = f(total + g.weight);
  }
  if (granularity === "coarse") {
    const merged: SensevalGuess[] = [];
    for (const g of guess) {
      const c = coarseTag(g.tag, map);
      const same = merged.find((m) => m.tag === c);
      if (same) same.weight = f(same.weight + g.weight);
      else merged.push({ tag: c, weight: g.weight });
    }
    guess = merged;
  }
  if (total > 1) {
    guess = guess.map((g) => ({ tag: g.tag, weight: f(g.weight / total) }));
    total = f(1);
  }
  return { guess, attempted: total };
}

function instanceScore(
  guess: readonly SensevalGuess[],
  keyTags: readonly string[],
  granularity: Granularity,
  treatment: Treatment,
  reading: StingyReading,
  map: SenseMap | null,
): number {
  const mixed = granularity === "mixed";
  let score = f(0);
  if (treatment !== "stingy") {
    for (const g of guess) {
      let sub = f(0);
      for (const k of keyTags) sub = f(sub + pairCredit(g.tag, k, mixed, map));
      if (sub > 1) sub = f(1);
      score = f(score + f(sub * g.weight));
    }
  } else {
    const gold = [...new Set(keyTags)];
    const share = f(1 / gold.length);
    if (reading === "product") {
      for (const g of guess) for (const k of gold) score = f(score + f(f(g.weight * share) * pairCredit(g.tag, k, mixed, map)));
    } else {
      for (const k of gold) {
        let mass = f(0);
        for (const g of guess) mass = f(mass + f(g.weight * pairCredit(g.tag, k, mixed, map)));
        score = f(score + Math.min(share, mass));
      }
    }
  }
  return score > 1 ? f(1) : score;
}

/** Sum the scored events (in file order, in single precision, as scorer2) over the kept instances. */
export function sensevalTotals(events: readonly SensevalEvent[], total: number): SensevalTotals {
  let correct = f(0);
  let attempted = f(0);
  for (const e of events) {
    if (e.kind !== "scored") continue;
    correct = f(correct + e.score);
    attempted = f(attempted + e.attempted);
  }
  return {
    correct,
    attempted,
    total,
    precision: ratio(correct, attempted),
    recall: ratio(correct, total),
    attemptedShare: ratio(attempted, total),
  };
}

export function scoreSenseval(answers: SensevalAnswers, key: SensevalKey, map: SenseMap | null, options: SensevalOptions = {}): SensevalResult {
  const granularity: Granularity = map ? (options.granularity ?? "fine") : "fine";
  const treatment = options.treatment ?? "generous";
  const reading = options.stingy ?? "product";
  const diagnostics: Diagnostic[] = [];
  if (!map && options.granularity && options.granularity !== "fine") {
    diagnostics.push(diag("warning", "senseval", 0, `no sense map given: fine-grained scoring is used, not ${options.granularity}`));
  }

  // Key instances at this granularity; minimal leaves out those with several tags.
  const byId = new Map<string, { entry: SensevalKeyEntry; tags: string[]; open: boolean; scoredAt: number }>();
  const kept: SensevalKeyEntry[] = [];
  for (const entry of key.entries) {
    const tags = keyTagsAt(entry.tags, granularity, map);
    const open = !(treatment === "minimal" && tags.length > 1);
    if (open) kept.push(entry);
    byId.set(instanceId(entry.lexelt, entry.instance), { entry, tags, open, scoredAt: 0 });
  }

  const events: SensevalEvent[] = [];
  for (const a of answers.lines) {
    const k = byId.get(instanceId(a.lexelt, a.instance));
    const at = { line: a.line, lexelt: a.lexelt, instance: a.instance };
    if (!k) {
      events.push({ kind: "unscored", ...at, reason: "unknown" });
      if (a.tags) diagnostics.push(diag("warning", answers.file, a.line, `instance ${a.lexelt} ${a.instance} is not in the key; ignored`));
      continue;
    }
    if (!a.tags) {
      events.push({ kind: "unscored", ...at, reason: "invalid" });
      continue;
    }
    if (!k.open) {
      events.push({ kind: "unscored", ...at, reason: "excluded-or-scored" });
      if (k.scoredAt > 0) {
        diagnostics.push(diag("warning", answers.file, a.line, `instance ${a.lexelt} ${a.instance} was already answered on line ${k.scoredAt}; this line is ignored`));
      }
      continue;
    }
    const { guess, attempted } = guessAt(a.tags, granularity, map);
    const score = instanceScore(guess, k.tags, granularity, treatment, reading, map);
    events.push({ kind: "scored", ...at, keyTags: k.tags, guess, score, attempted });
    k.open = false;
    k.scoredAt = a.line;
  }

  if (map && granularity !== "fine") {
    const missing = new Set<string>();
    for (const e of key.entries) for (const t of e.tags) if (!map.entries.has(t)) missing.add(t);
    for (const a of answers.lines) for (const t of a.tags ?? []) if (!map.entries.has(t.tag)) missing.add(t.tag);
    if (missing.size > 0) {
      const some = [...missing].slice(0, 5).join(", ");
      diagnostics.push(
        diag("warning", map.file, 0, `${missing.size} sense tag${missing.size === 1 ? " is" : "s are"} not in the sense map (${some}${missing.size > 5 ? ", ..." : ""}); each is its own main sense`),
      );
    }
  }

  return {
    granularity,
    treatment,
    stingy: reading,
    events,
    kept,
    diagnostics,
    ...sensevalTotals(events, kept.length),
  };
}

/** Parse three texts and score them; every file's diagnostics come back together. */
export function scoreSensevalTexts(
  files: { answers: { name: string; text: string }; key: { name: string; text: string }; sensemap?: { name: string; text: string } | null },
  options: SensevalOptions = {},
): SensevalResult {
  const answers = parseSensevalAnswers(files.answers.text, files.answers.name);
  const key = parseSensevalKey(files.key.text, files.key.name);
  const map = files.sensemap ? parseSenseMap(files.sensemap.text, files.sensemap.name) : null;
  const r = scoreSenseval(answers, key, map, options);
  return { ...r, diagnostics: [...key.diagnostics, ...answers.diagnostics, ...(map?.diagnostics ?? []), ...r.diagnostics] };
}

// ---------------------------------------------------------------------------
// Output

/** The `--json` record: exactly these keys; proportions in [0,1], unrounded, null where undefined. */
export interface SensevalJson {
  granularity: Granularity;
  minimal: boolean;
  correct: number;
  attemptedInstances: number;
  totalInstances: number;
  precision: number | null;
  recall: number | null;
  attempted: number | null;
}

export function sensevalJson(r: SensevalResult): SensevalJson {
  return {
    granularity: r.granularity,
    minimal: r.treatment === "minimal",
    correct: r.correct,
    attemptedInstances: r.attempted,
    totalInstances: r.total,
    precision: r.precision,
    recall: r.recall,
    attempted: r.attemptedShare,
  };
}

const GRAIN_TITLE: Record<Granularity, string> = { fine: "Fine-grained", coarse: "Coarse-grained", mixed: "Mixed-grained" };

function label(lexelt: string, instance: string): string {
  return instance === "" ? lexelt : `${lexelt}_${instance}`;
}

const UNSCORED: Record<"unknown" | "invalid" | "excluded-or-scored", string> = {
  unknown: "Does not exist.",
  invalid: "Invalid answer.",
  "excluded-or-scored": "Excluded or already scored.",
};

/**
 * scorer2's output: with `verbose`, its per-line trace first; then the summary
 * naming the answer and key files as given (`answersName`, `keyName`).
 */
export function formatSensevalScore(r: SensevalResult, answersName: string, keyName: string, options: { verbose?: boolean } = {}): string {
  let out = "";
  if (options.verbose) {
    for (const e of r.events) {
      if (e.kind === "scored") {
        out += `score for "${label(e.lexelt, e.instance)}": ${cFixed(e.score, 3)}\n`;
        out += ` key   =${e.keyTags.map((t) => ` ${t}`).join("")}\n`;
        out += ` guess =${e.guess.map((g) => ` ${g.tag}/${cFixed(g.weight, 3)}`).join("")}\n\n`;
      } else {
        // scorer2 numbers the answer lines from 0.
        out += `Unable to score answer for "${label(e.lexelt, e.instance)}" (line ${e.line - 1}): ${UNSCORED[e.reason]}\n\n`;
      }
    }
  }
  const treatment = r.treatment === "minimal" ? " minimal" : r.treatment === "stingy" ? ` stingy (${r.stingy})` : "";
  const { correct, attempted, total } = r;
  const fTotal = f(total);
  out += "\n";
  out += `${GRAIN_TITLE[r.granularity]}${treatment} score for "${answersName}" using key "${keyName}":\n`;
  out += ` precision: ${cFixed(f(correct / attempted), 3)} (${cFixed(correct, 2)} correct of ${cFixed(attempted, 2)} attempted)\n`;
  out += ` recall: ${cFixed(f(correct / fTotal), 3)} (${cFixed(correct, 2)} correct of ${cFixed(fTotal, 2)} in total)\n`;
  out += ` attempted: ${cFixed((100 * attempted) / fTotal, 2)} % (${cFixed(attempted, 2)} attempted of ${cFixed(fTotal, 2)} in total)\n`;
  out += "\n";
  return out;
}

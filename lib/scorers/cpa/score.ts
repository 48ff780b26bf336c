/**
 * SemEval-2015 Task 15, Corpus Pattern Analysis (seed 003;
 * ../shared/reference/sister-scorers.md §2). Three subtasks, one file per verb:
 *
 *   1  CPA parsing      task1/VERB.parse  token id, word, syntactic label, semantic type
 *                                          (tab-separated; blank line between sentences;
 *                                          the target verb has syntactic label `v`)
 *   2  clustering       task2/VERB.clust  verb-token id, cluster id (`u`: no cluster)
 *   3  pattern acquisition task3/VERB.pat nine tab-separated slots a pattern
 *
 * The standard definitions are the default. `taskScorer` reproduces the task's
 * own Python 2 scorer where its accounting differs: Task 1 (a wrong label is
 * charged to the gold label; labels only the run uses enter the mean) and
 * Task 3 (the ontology's partial credit is never applied). Its crashes and
 * silent miscounts are not copied: malformed lines are reported with file and
 * line, only files with the task's extension count as verbs, cluster ids need
 * not be numbers, and empty files score without dividing by zero.
 *
 * Pure: the caller passes {file name: text} maps of the run and gold folders.
 *
 * Why one file over 600 lines: the three subtasks share the file readers and the
 * scorer-compatibility switches; each subtask is one section below.
 */
import { type Diagnostic, diag, splitLines } from "../../lexsub/diagnostics";
import { mean, prf, prfCounts } from "../shared/measures";
import { fixedOrNA, formatTable } from "../shared/table";

export type CpaTask = 1 | 2 | 3;

export const CPA_EXTENSION: Record<CpaTask, string> = { 1: ".parse", 2: ".clust", 3: ".pat" };

const CPA_SLOTS = [
  "subject",
  "object",
  "indirect_object",
  "noun_adjective_complement",
  "verb_complement",
  "preposition_1",
  "adverbial_complement_1",
  "preposition_2",
  "adverbial_complement_2",
] as const;

// ---------------------------------------------------------------------------
// Ontology

export interface CpaOntology {
  file: string;
  /** term → its parent term, null for a root. */
  parent: Map<string, string | null>;
  diagnostics: Diagnostic[];
}

/**
 * Offset of the first syntax error in JSON text (JSON.parse does not always say
 * where), by a small recursive-descent scan; -1 when the text is well formed.
 */
function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return void i++;
        else fail();
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    const m = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!m) fail();
    i += (m as RegExpExecArray)[0].length;
  };
  const string = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  try {
    value();
    ws();
    return i < text.length ? i : -1;
  } catch (at) {
    return at as number;
  }
}

/** 1-based line and column of a JSON syntax error (0, 0 when it cannot be placed). */
function jsonErrorPlace(text: string): { line: number; column: number } {
  const at = jsonErrorOffset(text);
  if (at < 0) return { line: 0, column: 0 };
  const before = text.slice(0, at).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** The CPA ontology: a JSON tree of `{"term": "...", "sub": [...]}` nodes (a list of roots). */
export function parseCpaOntology(text: string, file: string): CpaOntology {
  const parent = new Map<string, string | null>();
  const diagnostics: Diagnostic[] = [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const at = jsonErrorPlace(text);
    diagnostics.push(diag("error", file, at.line, at.line > 0 ? `not valid JSON (column ${at.column})` : "not valid JSON"));
    return { file, parent, diagnostics };
  }
  const walk = (node: unknown, up: string | null, where: string): void => {
    if (typeof node !== "object" || node === null || Array.isArray(node) || typeof (node as { term?: unknown }).term !== "string") {
      diagnostics.push(diag("error", file, 0, `${where}: expected an object with a string "term"`));
      return;
    }
    const { term, sub } = node as { term: string; sub?: unknown };
    if (parent.has(term)) diagnostics.push(diag("warning", file, 0, `term "${term}" appears more than once; its first place in the tree is used`));
    else parent.set(term, up);
    if (sub === undefined) return;
    if (!Array.isArray(sub)) {
      diagnostics.push(diag("error", file, 0, `"${term}": "sub" must be a list`));
      return;
    }
    sub.forEach((child, i) => walk(child, term, `${where} > ${term} > sub[${i}]`));
  };
  const roots = Array.isArray(data) ? data : [data];
  roots.forEach((r, i) => walk(r, null, `root ${i}`));
  return { file, parent, diagnostics };
}

// ---------------------------------------------------------------------------
// Task 1: CPA parsing

export interface CpaToken {
  id: string;
  syntax: string | null;
  semantics: string | null;
  line: number;
}

export function parseCpaParse(text: string, file: string): { tokens: Map<string, CpaToken>; diagnostics: Diagnostic[] } {
  const tokens = new Map<string, CpaToken>();
  const diagnostics: Diagnostic[] = [];
  for (const { line, text: t } of splitLines(text)) {
    if (t.trim() === "") continue;
    const fs = t.split("\t");
    if (fs.length > 4) {
      diagnostics.push(diag("error", file, line, `expected at most 4 tab-separated fields (id, word, syntactic label, semantic type), found ${fs.length}`));
      continue;
    }
    const id = fs[0].trim();
    if (id === "") {
      diagnostics.push(diag("error", file, line, "the token id (first field) is empty"));
      continue;
    }
    const syntax = (fs[2] ?? "").trim();
    const semantics = (fs[3] ?? "").trim();
    if (syntax === "v") continue; // the target verb is not scored
    const first = tokens.get(id);
    if (first) {
      diagnostics.push(diag("error", file, line, `token id ${id} already used on line ${first.line}; this line is ignored`));
      continue;
    }
    tokens.set(id, { id, syntax: syntax || null, semantics: semantics || null, line });
  }
  return { tokens, diagnostics };
}

type CpaLayer = "syntax" | "semantics";

interface CpaLabelScore {
  label: string;
  /** Tokens the gold labels L (task scorer: "ref"). */
  gold: number;
  /** Tokens the run labels L (task scorer: its own "run" count, charged to the gold label). */
  run: number;
  /** Tokens both label L. */
  both: number;
  precision: number | null;
  recall: number | null;
  f: number;
}

interface CpaLayerScore {
  labels: CpaLabelScore[];
  /** Mean F over the labels; null when the gold has no label in this layer. */
  score: number | null;
}

export interface CpaTask1Verb {
  syntax: CpaLayerScore;
  semantics: CpaLayerScore;
  score: number;
}

function layerStandard(run: Map<string, CpaToken>, gold: Map<string, CpaToken>, layer: CpaLayer): CpaLayerScore {
  const labels = new Map<string, CpaLabelScore>();
  for (const t of gold.values()) {
    const l = t[layer];
    if (l === null) continue;
    if (!labels.has(l)) labels.set(l, { label: l, gold: 0, run: 0, both: 0, precision: null, recall: null, f: 0 });
    (labels.get(l) as CpaLabelScore).gold++;
  }
  for (const t of run.values()) {
    const s = t[layer] === null ? undefined : labels.get(t[layer] as string);
    if (!s) continue;
    s.run++;
    if (gold.get(t.id)?.[layer] === s.label) s.both++;
  }
  const out = [...labels.values()].map((s) => {
    const r = prfCounts(s.both, s.run, s.gold);
    return { ...s, precision: r.precision, recall: r.recall, f: r.f ?? 0 };
  });
  return { labels: out, score: mean(out.map((s) => s.f)) };
}

/** The task scorer's accounting (get_score_values_task1 + metric_task1). */
function layerTaskScorer(run: Map<string, CpaToken>, gold: Map<string, CpaToken>, layer: CpaLayer): CpaLayerScore {
  const labels = new Map<string, CpaLabelScore>();
  const at = (l: string): CpaLabelScore => {
    if (!labels.has(l)) labels.set(l, { label: l, gold: 0, run: 0, both: 0, precision: null, recall: null, f: 0 });
    return labels.get(l) as CpaLabelScore;
  };
  for (const t of run.values()) {
    const l = t[layer];
    if (l !== null && (gold.get(t.id)?.[layer] ?? null) === null) at(l).run++;
  }
  for (const t of gold.values()) {
    const l = t[layer];
    if (l === null) continue;
    const s = at(l);
    s.gold++;
    const r = run.get(t.id)?.[layer] ?? null;
    if (r !== null) {
      s.run++; // charged to the gold label, whatever the run said
      if (r === l) s.both++;
    }
  }
  const out = [...labels.values()].map((s) => {
    // A label only the run uses has no gold count: it scores 0 but still counts in the mean.
    const r = s.gold === 0 ? prf(null, null) : prfCounts(s.both, s.run, s.gold);
    return { ...s, precision: r.precision, recall: r.recall, f: r.f ?? 0 };
  });
  return { labels: out, score: mean(out.map((s) => s.f)) };
}

export function scoreCpaTask1Verb(run: Map<string, CpaToken>, gold: Map<string, CpaToken>, taskScorer = false): CpaTask1Verb {
  const layer = taskScorer ? layerTaskScorer : layerStandard;
  const syntax = layer(run, gold, "syntax");
  const semantics = layer(run, gold, "semantics");
  // The task scorer always halves the sum of the two layers; the standard mean
  // is over the layers the gold labels at all.
  const score = taskScorer
    ? ((syntax.score ?? 0) + (semantics.score ?? 0)) / 2
    : (mean([syntax.score, semantics.score].filter((s): s is number => s !== null)) ?? 0);
  return { syntax, semantics, score };
}

// ---------------------------------------------------------------------------
// Task 2: clustering

/** The cluster id that marks an item as unclassified: no cluster. */
const CPA_NO_CLUSTER = "u";

export function parseCpaClust(text: string, file: string): { items: Map<string, string | null>; diagnostics: Diagnostic[] } {
  const items = new Map<string, string | null>();
  const lines = new Map<string, number>();
  const diagnostics: Diagnostic[] = [];
  for (const { line, text: t } of splitLines(text)) {
    if (t.trim() === "") continue;
    const fs = t.trim().split(/\s+/);
    if (fs.length !== 2) {
      diagnostics.push(diag("error", file, line, `expected "verb-token-id<TAB>cluster-id", found ${fs.length} field${fs.length === 1 ? "" : "s"}`));
      continue;
    }
    const [id, cluster] = fs;
    if (lines.has(id)) {
      diagnostics.push(diag("error", file, line, `item ${id} already clustered on line ${lines.get(id)}; this line is ignored`));
      continue;
    }
    lines.set(id, line);
    items.set(id, cluster === CPA_NO_CLUSTER ? null : cluster);
  }
  return { items, diagnostics };
}

export interface CpaTask2Verb {
  /** Items the run puts in a cluster. */
  runItems: number;
  /** Items the gold puts in a cluster. */
  goldItems: number;
  precision: number | null;
  recall: number | null;
  score: number;
}

/** For each item of `a` in a cluster: |its a-cluster ∩ its b-cluster| / |its a-cluster|, averaged. */
function bcubedSide(a: Map<string, string | null>, b: Map<string, string | null>): number | null {
  const clusters = new Map<string, string[]>();
  for (const [id, c] of a) if (c !== null) clusters.set(c, [...(clusters.get(c) ?? []), id]);
  let sum = 0;
  let n = 0;
  for (const [id, c] of a) {
    if (c === null) continue;
    n++;
    const other = b.get(id) ?? null;
    if (other === null) continue; // no cluster on the other side: 0
    const members = clusters.get(c) as string[];
    sum += members.filter((m) => (b.get(m) ?? null) === other).length / members.length;
  }
  return n === 0 ? null : sum / n;
}

export function scoreCpaTask2Verb(run: Map<string, string | null>, gold: Map<string, string | null>): CpaTask2Verb {
  const precision = bcubedSide(run, gold);
  const recall = bcubedSide(gold, run);
  const count = (m: Map<string, string | null>) => [...m.values()].filter((c) => c !== null).length;
  return { runItems: count(run), goldItems: count(gold), precision, recall, score: prf(precision ?? 0, recall ?? 0).f ?? 0 };
}

// ---------------------------------------------------------------------------
// Task 3: pattern acquisition

export interface CpaPattern {
  line: number;
  /** The nine slots in CPA_SLOTS order; "" when empty. */
  slots: string[];
}

export function parseCpaPat(text: string, file: string): { patterns: CpaPattern[]; diagnostics: Diagnostic[] } {
  const patterns: CpaPattern[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { line, text: t } of splitLines(text)) {
    if (t.trim() === "") continue;
    const fs = t.split("\t").map((s) => s.trim());
    if (fs.length > CPA_SLOTS.length) {
      diagnostics.push(diag("error", file, line, `expected ${CPA_SLOTS.length} tab-separated slots, found ${fs.length}`));
      continue;
    }
    if (fs.length < CPA_SLOTS.length) {
      diagnostics.push(diag("warning", file, line, `${fs.length} of ${CPA_SLOTS.length} tab-separated slots; the missing ones are taken as empty`));
      while (fs.length < CPA_SLOTS.length) fs.push("");
    }
    patterns.push({ line, slots: fs });
  }
  return { patterns, diagnostics };
}

export interface CpaSlotCounts {
  correct: number;
  substitution: number;
  insertion: number;
  deletion: number;
}

/** Slot-by-slot counts for one gold / run pattern pair. */
export function cpaSlotCounts(gold: readonly string[], run: readonly string[], ontology: CpaOntology | null): CpaSlotCounts {
  const c: CpaSlotCounts = { correct: 0, substitution: 0, insertion: 0, deletion: 0 };
  const parent = ontology?.parent;
  for (let i = 0; i < CPA_SLOTS.length; i++) {
    const g = gold[i] ?? "";
    const r = run[i] ?? "";
    if (g === "" && r === "") continue;
    if (g === "") c.insertion++;
    else if (r === "") c.deletion++;
    else if (g === r) c.correct++;
    else if (parent && parent.get(r) === g) {
      // the run's type is a direct child of the gold's: too specific
      c.correct += 0.25;
      c.substitution += 0.75;
    } else if (parent && parent.get(g) === r && r !== "Anything" && (parent.get(r) ?? null) !== null) {
      // the run's type is the direct parent of the gold's (and not the root)
      c.correct += 0.5;
      c.substitution += 0.5;
    } else c.substitution++;
  }
  return c;
}

/** F of a pattern pair: P = C/(C+S+I), R = C/(C+S+D); 0 where undefined. */
export function cpaPatternF(c: CpaSlotCounts): number {
  const p = prfCounts(c.correct, c.correct + c.substitution + c.insertion, c.correct + c.substitution + c.deletion);
  return p.f ?? 0;
}

interface CpaTask3Match {
  /** 1-based index of the gold pattern in its file, and of the run pattern it took (null: none left). */
  gold: number;
  run: number | null;
  counts: CpaSlotCounts | null;
  f: number;
}

export interface CpaTask3Verb {
  goldPatterns: number;
  runPatterns: number;
  matches: CpaTask3Match[];
  score: number;
}

export function scoreCpaTask3Verb(run: readonly CpaPattern[], gold: readonly CpaPattern[], ontology: CpaOntology | null): CpaTask3Verb {
  const used = new Set<number>();
  const matches: CpaTask3Match[] = gold.map((g, gi) => {
    let best: { run: number; counts: CpaSlotCounts; f: number } | null = null;
    run.forEach((r, ri) => {
      if (used.has(ri)) return;
      const counts = cpaSlotCounts(g.slots, r.slots, ontology);
      const f = cpaPatternF(counts);
      if (best === null || f > best.f) best = { run: ri, counts, f };
    });
    if (best === null) return { gold: gi + 1, run: null, counts: null, f: 0 };
    const b = best as { run: number; counts: CpaSlotCounts; f: number };
    used.add(b.run);
    return { gold: gi + 1, run: b.run + 1, counts: b.counts, f: b.f };
  });
  const score = gold.length === 0 ? 0 : matches.reduce((s, m) => s + m.f, 0) / gold.length;
  return { goldPatterns: gold.length, runPatterns: run.length, matches, score };
}

// ---------------------------------------------------------------------------
// A whole run

export interface CpaOptions {
  /** Reproduce the task scorer's accounting where it differs (Task 1; Task 3 without partial credit). */
  taskScorer?: boolean;
  /** Task 3's ontology, for partial credit. */
  ontology?: CpaOntology | null;
  /** Display names of the two folders, for diagnostics (default "run", "gold"). */
  runName?: string;
  goldName?: string;
}

type CpaVerbDetail = CpaTask1Verb | CpaTask2Verb | CpaTask3Verb;

interface CpaVerbResult {
  verb: string;
  /** false when the run has no file for this verb (it then scores 0). */
  inRun: boolean;
  score: number;
  detail: CpaVerbDetail | null;
}

export interface CpaResult {
  task: CpaTask;
  taskScorer: boolean;
  /** Whether Task 3's partial credit was applied. */
  partialCredit: boolean;
  verbs: CpaVerbResult[];
  /** Mean verb score over the verbs in the gold; null when the gold has none. */
  score: number | null;
  diagnostics: Diagnostic[];
}

/** Verb name → file text, for the files with the task's extension. */
function verbFiles(files: Record<string, string>, ext: string): Map<string, { name: string; text: string }> {
  const out = new Map<string, { name: string; text: string }>();
  for (const name of Object.keys(files).sort()) {
    if (name.endsWith(ext) && name.length > ext.length) out.set(name.slice(0, -ext.length), { name, text: files[name] });
  }
  return out;
}

/**
 * Score one subtask. `run` and `gold` map file names (e.g. "abandon.parse") to
 * their text; files without the task's extension are ignored.
 */
export function scoreCpa(task: CpaTask, run: Record<string, string>, gold: Record<string, string>, options: CpaOptions = {}): CpaResult {
  const taskScorer = options.taskScorer ?? false;
  const runName = options.runName ?? "run";
  const goldName = options.goldName ?? "gold";
  const ext = CPA_EXTENSION[task];
  const runFiles = verbFiles(run, ext);
  const goldFiles = verbFiles(gold, ext);
  const diagnostics: Diagnostic[] = [];
  const ontology = task === 3 && !taskScorer ? (options.ontology ?? null) : null;
  if (task === 3 && !taskScorer && !options.ontology) {
    diagnostics.push(diag("warning", goldName, 0, "no CPA ontology given: Task 3 partial credit is not applied"));
  }
  if (goldFiles.size === 0) diagnostics.push(diag("error", goldName, 0, `no ${ext} files: nothing to score`));
  for (const verb of runFiles.keys()) {
    if (!goldFiles.has(verb)) diagnostics.push(diag("warning", `${runName}/${verb}${ext}`, 0, `verb "${verb}" is not in the gold; ignored`));
  }

  const verbs: CpaVerbResult[] = [];
  for (const [verb, g] of goldFiles) {
    const r = runFiles.get(verb);
    const gPath = `${goldName}/${g.name}`;
    const rPath = `${runName}/${r?.name ?? verb + ext}`;
    if (!r) diagnostics.push(diag("warning", gPath, 0, `the run has no file for verb "${verb}"; it scores 0`));
    let detail: CpaVerbDetail;
    if (task === 1) {
      const gp = parseCpaParse(g.text, gPath);
      const rp = parseCpaParse(r?.text ?? "", rPath);
      diagnostics.push(...gp.diagnostics, ...rp.diagnostics);
      detail = scoreCpaTask1Verb(rp.tokens, gp.tokens, taskScorer);
      const d = detail as CpaTask1Verb;
      if (d.syntax.score === null && d.semantics.score === null) diagnostics.push(diag("warning", gPath, 0, "the gold labels no token; the verb scores 0"));
    } else if (task === 2) {
      const gp = parseCpaClust(g.text, gPath);
      const rp = parseCpaClust(r?.text ?? "", rPath);
      diagnostics.push(...gp.diagnostics, ...rp.diagnostics);
      detail = scoreCpaTask2Verb(rp.items, gp.items);
      if ((detail as CpaTask2Verb).goldItems === 0) diagnostics.push(diag("warning", gPath, 0, "the gold clusters no item; the verb scores 0"));
    } else {
      const gp = parseCpaPat(g.text, gPath);
      const rp = parseCpaPat(r?.text ?? "", rPath);
      diagnostics.push(...gp.diagnostics, ...rp.diagnostics);
      detail = scoreCpaTask3Verb(rp.patterns, gp.patterns, ontology);
      if (gp.patterns.length === 0) diagnostics.push(diag("warning", gPath, 0, "the gold has no pattern; the verb scores 0"));
    }
    verbs.push({ verb, inRun: r !== undefined, score: r ? detail.score : 0, detail: r ? detail : null });
  }
  return {
    task,
    taskScorer,
    partialCredit: ontology !== null,
    verbs,
    score: mean(verbs.map((v) => v.score)),
    diagnostics,
  };
}

// ---------------------------------------------------------------------------
// Output

const TITLE: Record<CpaTask, string> = { 1: "CPA parsing", 2: "CPA clustering", 3: "CPA automatic lexicography" };

function definition(r: CpaResult): string[] {
  if (r.task === 1) {
    return r.taskScorer
      ? [
          "task scorer's accounting (--task-scorer): a run label on a gold-labelled token is charged to the gold label;",
          "labels only the run uses count in each layer's mean with F = 0; verb = (syntax + semantics) / 2",
        ]
      : [
          "per label L the gold uses: P = tokens both label L / tokens the run labels L, R = ... / tokens the gold labels L;",
          "layer = mean F over the gold's labels; verb = mean of the two layers; the target verb (label v) is not scored",
        ];
  }
  if (r.task === 2) {
    return [
      "B-cubed: P = mean over run items of |run cluster & gold cluster| / |run cluster|, R the same with run and gold swapped;",
      `an item with no cluster on the other side scores 0; cluster id "${CPA_NO_CLUSTER}" means no cluster`,
    ];
  }
  return [
    "per slot: equal = correct; run direct child of gold = .25 correct + .75 substitution; run direct parent (not the root) =",
    ".5 + .5; other = substitution; run only = insertion; gold only = deletion. P = C/(C+S+I), R = C/(C+S+D);",
    "gold patterns in order take the best unused run pattern; verb = sum of F / gold patterns",
    r.partialCredit ? "partial credit: applied" : r.taskScorer ? "partial credit: not applied (--task-scorer, as the task's scorer)" : "partial credit: not applied (no ontology)",
  ];
}

export function formatCpaResult(r: CpaResult, names: { run: string; gold: string; ontology?: string | null }): string {
  const lines = [`SemEval-2015 Task 15, subtask ${r.task} (${TITLE[r.task]}): run "${names.run}" against gold "${names.gold}"`];
  if (r.task === 3 && names.ontology) lines.push(`ontology: "${names.ontology}"`);
  lines.push(...definition(r), "");
  const four = (x: number | null) => fixedOrNA(x, 4);
  let rows: string[][];
  if (r.task === 1) {
    rows = [["verb", "syntax", "semantics", "score"]];
    for (const v of r.verbs) {
      const d = v.detail as CpaTask1Verb | null;
      rows.push([v.verb, d ? four(d.syntax.score) : "-", d ? four(d.semantics.score) : "-", four(v.score)]);
    }
  } else if (r.task === 2) {
    rows = [["verb", "run items", "gold items", "precision", "recall", "score"]];
    for (const v of r.verbs) {
      const d = v.detail as CpaTask2Verb | null;
      rows.push([v.verb, d ? String(d.runItems) : "-", d ? String(d.goldItems) : "-", d ? four(d.precision) : "-", d ? four(d.recall) : "-", four(v.score)]);
    }
  } else {
    rows = [["verb", "gold patterns", "run patterns", "score"]];
    for (const v of r.verbs) {
      const d = v.detail as CpaTask3Verb | null;
      rows.push([v.verb, d ? String(d.goldPatterns) : "-", d ? String(d.runPatterns) : "-", four(v.score)]);
    }
  }
  lines.push(...formatTable(rows, ["left", ...rows[0].slice(1).map(() => "right" as const)]));
  lines.push("", `score: ${four(r.score)} (mean over ${r.verbs.length} verb${r.verbs.length === 1 ? "" : "s"} in the gold; a verb the run lacks scores 0)`, "");
  return lines.join("\n");
}

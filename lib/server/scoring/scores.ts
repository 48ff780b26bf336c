/**
 * The Scoring page's data access: system runs (uploaded best / oot / mw files)
 * stored per project, each scored against the gold it was uploaded with — the
 * project's own gold (derived from the annotators' responses, lib/server/gold/gold.ts)
 * or a gold / mwgold pair uploaded and stored with the project (scoring_golds) —
 * and ranked only among the runs of that gold; and SENSEVAL answers scored on the
 * spot (not stored). Every function checks that the actor is the project's
 * coordinator.
 *
 * All scoring goes through `scoreTexts` (the CLI's readers, key and scorers) and
 * the SENSEVAL scorer's `scoreSensevalTexts` / `sensevalReportTexts`: there is
 * no second implementation here, only shaping for the page and the downloads.
 *
 * The parts: uploads.ts (reading files), runs.ts, golds.ts, this file (the
 * figures, the board and the downloads) and senseval.ts.
 */
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { scoringGolds, systemRuns, users } from "../../../db/schema";
import { type ItemScore, type MwItem, type MwResult, type SubstitutionResult, type SubstitutionStats } from "../../scorers/semeval2007/index";
import { type RepairChange } from "../../scorers/semeval2007/repairs";
import { formatReport, mwJson, repairJson, substitutionJson, utf8Json } from "../../scorers/semeval2007/report";
import { type Reading, readingFor } from "../../scorers/semeval2007/rules";
import { substitutionScores } from "../../scorers/semeval2007/substitution";
import { scorePieces, scoreTexts } from "../../scorers/semeval2007/texts";
import { type Diagnostic, formatDiagnostic, hasErrors, splitLines } from "../../lexsub/diagnostics";
import { named } from "../../../db/sql-names";
import { type Actor, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { type GoldInfo, type GoldSource, type ResolvedGold, listGolds, resolveGold, sourceOfRun } from "./golds";
import { type RunInfo, runColumns, runFile, runTextPieces, sameGold } from "./runs";
import { type NamedText, type RunType } from "./uploads";
import { type ScoreIntervals, scoreIntervals } from "../../scorers/shared/intervals";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const SCORING_GOLDS = named(scoringGolds);
const SYSTEM_RUNS = named(systemRuns);

// ---------------------------------------------------------------------------
// Scores

/**
 * Which figures to compute: score.pl's (the default, `repaired: false`) or
 * those of the documented repairs (docs/scorer.md, lib/scorers/semeval2007/repairs.ts).
 */
export interface ScoreMode {
  repaired?: boolean;
  /**
   * How the files' characters are read: "bytes" (score.pl as it runs) or "utf8" (`perl -CSD score.pl`).
   * Absent: the project's default (rules.ts `readingFor` its language: bytes for English, UTF-8 otherwise).
   */
  reading?: Reading;
}

/** The mode with its reading settled: the one asked for, else the project's language's default. */
function settled(project: { language: string }, mode: ScoreMode): ScoreMode & { reading: Reading } {
  return { ...mode, reading: mode.reading ?? readingFor(project.language) };
}

/** What the documented repairs would change in a run scored as score.pl does (null when no figure differs). */
interface RunRepairs {
  /** The run's figures with the repairs. */
  figures: RunFigures;
  /** Each rule that changed items, with its score.pl / repaired reading, how many items and the first few ids. */
  changes: RepairChange[];
}

/** The figures of one run: best/oot or mw, as the JSON of `lexgold score --json`. */
export type RunFigures = ReturnType<typeof substitutionJson> | ReturnType<typeof mwJson>;

export interface RunSummary {
  run: RunInfo;
  /** null when the run could not be scored (see `problem`). */
  figures: RunFigures | null;
  /** Why there are no figures: no gold of the run's kind, or a gold with errors. */
  problem: string | null;
  errors: number;
  warnings: number;
  /** System lines in no format, skipped. */
  skipped: number;
  /** best and oot: the figures per PoS, in the gold's order. */
  byPos: { group: string; figures: RunFigures }[];
  /** In score.pl's mode, the repaired figures and the rules behind them when they differ; else null. */
  repaired: RunRepairs | null;
  /** Read as bytes (score.pl's figures): the figures read as UTF-8 text, when they differ; else null. */
  utf8: RunFigures | null;
  /** best and oot: bootstrap 95% intervals of precision and recall over the gold's items (the Scoring tab's chart); else null. */
  intervals: ScoreIntervals | null;
}

export interface ScoreBoard {
  /** The figures shown: score.pl's or the repaired ones. */
  mode: "official" | "repaired";
  /** How the files were read: as bytes (score.pl) or as UTF-8 text (perl -CSD). */
  reading: Reading;
  gold: { kind: ResolvedGold["kind"]; id: number | null; label: string; goldName: string | null; mwgoldName: string | null; items: number | null };
  /** Every gold of the project with its number of runs (the project's own first): runs are ranked only among those of their gold. */
  golds: GoldInfo[];
  /** Diagnostics of the gold and mwgold themselves (once, not per run). */
  goldDiagnostics: Diagnostic[];
  runs: RunSummary[];
  /**
   * A board from the outcomes kept per id (#39, board.ts): when the runs were last scored whole for
   * their repaired and UTF-8 figures (null: not yet), and whether anything changed since. Absent
   * when the board itself was scored whole.
   */
  others?: { computedAt: number | null; stale: boolean; missing: boolean; computing?: boolean };
}

interface Scored {
  out: ReturnType<typeof scoreTexts>;
  goldDiagnostics: Diagnostic[];
}

/** A stored run scored whole from its pieces (never one string), without its items: the attempted items' scores only (for the intervals). */
interface ScoredStored {
  out: ReturnType<typeof scorePieces>;
  scores: number[];
  goldDiagnostics: Diagnostic[];
}

function scoreStored(db: Db, g: ResolvedGold, run: { id: number; type: RunType; fileName: string }, by: "pos" | undefined, mode: ScoreMode): ScoredStored | null {
  const gold = goldFor(g, run.type);
  if (!gold) return null;
  const scores: number[] = [];
  const out = scorePieces({
    type: run.type,
    system: () => runTextPieces(db, run.id),
    gold: () => [gold.text],
    systemName: run.fileName,
    goldName: gold.name,
    by: run.type === "mw" ? undefined : by,
    repaired: mode.repaired === true,
    reading: mode.reading,
    onItem: (i) => void scores.push("score" in i ? i.score : NaN),
  });
  return { out, scores, goldDiagnostics: out.goldDiagnostics };
}

function goldFor(g: ResolvedGold, type: RunType): NamedText | null {
  return type === "mw" ? g.mwgold : g.gold;
}

function missingGold(g: ResolvedGold, type: RunType): string {
  return type === "mw" ? "No mwgold file uploaded: mw runs are scored against an mwgold." : "No gold file uploaded: best and oot runs are scored against a gold.";
}

function scoreOne(g: ResolvedGold, run: { type: RunType; fileName: string; content: string }, by: "pos" | "lexelt" | undefined, mode: ScoreMode): Scored | null {
  const gold = goldFor(g, run.type);
  if (!gold) return null;
  const out = scoreTexts({
    type: run.type,
    system: run.content,
    gold: gold.text,
    systemName: run.fileName,
    goldName: gold.name,
    by: run.type === "mw" ? undefined : by,
    repaired: mode.repaired === true,
    reading: mode.reading,
  });
  return { out, goldDiagnostics: out.goldDiagnostics };
}

/**
 * best and oot: the bootstrap intervals of precision and recall, from the attempted items' scores
 * (null when they do not add up to the figures, e.g. a repaired pass scored other items).
 */
function runIntervals(res: SubstitutionResult | MwResult, scores: number[]): ScoreIntervals | null {
  if (res.type === "mw") return null;
  const sum = scores.reduce((a, b) => a + b, 0);
  if (scores.length !== res.stats.attempted || !(Math.abs(sum - res.stats.credit) <= 1e-9 * Math.max(1, res.stats.credit))) return null;
  // About 20 million draws at most for the board, whatever the gold's size.
  return scoreIntervals(scores, res.stats.total, { iterations: Math.max(100, Math.min(1000, Math.floor(2e7 / Math.max(1, res.stats.total)))) });
}

function figuresOf(result: SubstitutionResult | MwResult): RunFigures {
  return result.type === "mw" ? mwJson(result.stats) : substitutionJson(result.type, result.stats);
}

/** The repaired figures and the rules behind them, when a repair changes a figure (default mode only). */
function repairsOf(out: Pick<ReturnType<typeof scoreTexts>, "repairs">): RunRepairs | null {
  const r = out.repairs;
  if (!r || !r.figuresDiffer) return null;
  return { figures: figuresOf(r.result), changes: r.changes };
}

function goldItems(g: ResolvedGold): number | null {
  if (!g.gold) return null;
  let n = 0;
  for (const l of splitLines(g.gold.text)) if (l.text.trim() !== "") n++;
  return n;
}

/**
 * What the Scoring board depends on besides the project's data: its stored runs and golds
 * (ids, names, the gold each run is scored with). Cheap: one indexed read of a few rows.
 */
export function scoringFingerprint(db: Db, projectId: number): string {
  const r = db.$client
    .prepare(
      `select (select coalesce(group_concat(${SYSTEM_RUNS.id} || ':' || ${SYSTEM_RUNS.name} || ':' || coalesce(${SYSTEM_RUNS.goldId}, ''), ','), '') from ${SYSTEM_RUNS.$} where ${SYSTEM_RUNS.projectId} = ?) as runs,
              (select coalesce(group_concat(${SCORING_GOLDS.id} || ':' || ${SCORING_GOLDS.name}, ','), '') from ${SCORING_GOLDS.$} where ${SCORING_GOLDS.projectId} = ?) as golds`,
    )
    .get(projectId, projectId) as { runs: string; golds: string };
  return `${r.runs};${r.golds}`;
}

/** The runs scored with the chosen gold, ranked among themselves: the page's results table (derived off the request thread: derive-jobs.ts). */
export function scoreBoard(db: Db, actor: Actor, projectId: number, source: GoldSource, asked: ScoreMode = {}): ScoreBoard {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const mode = settled(project, asked);
  const g = resolveGold(db, actor, project, source);
  const rows = db
    .select(runColumns)
    .from(systemRuns)
    .leftJoin(users, eq(users.id, systemRuns.createdBy))
    .where(and(eq(systemRuns.projectId, projectId), sameGold(g.id)))
    .orderBy(asc(systemRuns.id))
    .all();
  const goldDiagnostics = new Map<string, Diagnostic[]>();
  const runs: RunSummary[] = rows.map((run) => {
    const s = scoreStored(db, g, run, "pos", mode);
    if (!s) return { run, figures: null, problem: missingGold(g, run.type), errors: 0, warnings: 0, skipped: 0, byPos: [], repaired: null, utf8: null, intervals: null };
    const kind = run.type === "mw" ? "mw" : "gold";
    if (!goldDiagnostics.has(kind)) goldDiagnostics.set(kind, s.goldDiagnostics);
    const sys = s.out.systemDiagnostics;
    const counts = {
      errors: sys.filter((d) => d.severity === "error").length,
      warnings: sys.filter((d) => d.severity === "warning").length,
      skipped: s.out.lines.refused,
    };
    if (hasErrors(s.goldDiagnostics)) return { run, figures: null, problem: `${goldFor(g, run.type)!.name} has errors; nothing scored.`, ...counts, byPos: [], repaired: null, utf8: null, intervals: null };
    const res = s.out.result;
    const byPos = res.type === "mw" ? [] : (res.groups ?? []).map((x) => ({ group: x.group, figures: substitutionJson(res.type, x.stats) }));
    return { run, figures: figuresOf(res), problem: null, ...counts, byPos, repaired: repairsOf(s.out), utf8: utf8Json(s.out.utf8)?.figures ?? null, intervals: runIntervals(res, s.scores) };
  });
  // The gold's own problems, even when no run is stored yet.
  if (g.gold && !goldDiagnostics.has("gold")) goldDiagnostics.set("gold", scoreTexts({ type: "best", system: "", gold: g.gold.text, goldName: g.gold.name }).goldDiagnostics);
  if (g.mwgold && !goldDiagnostics.has("mw")) goldDiagnostics.set("mw", scoreTexts({ type: "mw", system: "", gold: g.mwgold.text, goldName: g.mwgold.name }).goldDiagnostics);
  return {
    mode: mode.repaired ? "repaired" : "official",
    reading: mode.reading,
    gold: { kind: g.kind, id: g.id, label: g.label, goldName: g.gold?.name ?? null, mwgoldName: g.mwgold?.name ?? null, items: goldItems(g) },
    golds: listGolds(db, actor, projectId),
    goldDiagnostics: [...(goldDiagnostics.get("gold") ?? []), ...(goldDiagnostics.get("mw") ?? [])],
    runs,
  };
}

/**
 * The JSON download: the figures of every run scored with the chosen gold (as `lexgold score --json`, with
 * `--repaired` in the repaired mode) with its per-PoS breakdown and, in score.pl's
 * mode, the `repaired` object when a repair changes a figure.
 */
export function scoresJson(db: Db, actor: Actor, projectId: number, source: GoldSource, asked: ScoreMode = {}) {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const mode = settled(project, asked);
  const g = resolveGold(db, actor, project, source);
  const rows = db
    .select({ id: systemRuns.id, name: systemRuns.name, type: systemRuns.type, fileName: systemRuns.fileName })
    .from(systemRuns)
    .where(and(eq(systemRuns.projectId, projectId), sameGold(g.id)))
    .orderBy(asc(systemRuns.id))
    .all();
  return {
    project: project.name,
    figures: mode.repaired ? "repaired" : "score.pl",
    reading: mode.reading,
    gold: { kind: g.kind, id: g.id, label: g.label, gold: g.gold?.name ?? null, mwgold: g.mwgold?.name ?? null },
    runs: rows.map((r) => {
      const head = { id: r.id, name: r.name, fileName: r.fileName };
      const s = scoreStored(db, g, r, "pos", mode);
      if (!s) return { ...head, type: r.type, scores: null, problem: missingGold(g, r.type) };
      if (hasErrors(s.goldDiagnostics)) return { ...head, type: r.type, scores: null, problem: `${goldFor(g, r.type)!.name} has errors; nothing scored.` };
      const res = s.out.result;
      const groups = res.type === "mw" ? undefined : (res.groups ?? []).map((x) => ({ pos: x.group, ...substitutionJson(res.type, x.stats) }));
      const repaired = repairJson(s.out.repairs);
      const utf8 = utf8Json(s.out.utf8);
      return {
        ...head,
        scores: figuresOf(res),
        ...(groups ? { groups } : {}),
        ...(repaired ? { repaired } : {}),
        ...(utf8 ? { utf8 } : {}),
        diagnostics: s.out.systemDiagnostics.map(formatDiagnostic),
      };
    }),
  };
}

/** `scoresJson` as the text of its download and the file name it is offered under (`project[-gold]-scores[-repaired].json`). */
export function scoresFile(db: Db, actor: Actor, projectId: number, source: GoldSource, mode: ScoreMode = {}): { fileName: string; text: string } {
  const json = scoresJson(db, actor, projectId, source, mode);
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "run";
  const suffix = json.figures === "repaired" ? "-repaired" : "";
  const gold = json.gold.id === null ? "" : `-${safe(json.gold.label)}`;
  return { fileName: `${safe(json.project)}${gold}-scores${suffix}.json`, text: JSON.stringify(json, null, 2) + "\n" };
}

/** One row of a breakdown: a PoS or a lexelt. */
export interface GroupRow {
  group: string;
  stats: SubstitutionStats;
  scores: ReturnType<typeof substitutionScores>;
}

/** One attempted item, as the per-item table shows it. */
export type ItemRow =
  | {
      kind: "substitution";
      line: number;
      id: string;
      lexelt: string;
      guesses: string[];
      mode: string | null;
      modeHit: boolean | null;
      credit: number;
      score: number;
      humanResponses: number;
      truncated: boolean;
    }
  | { kind: "mw"; line: number; id: string; lexelt: string; answer: string; mode: string | null; genuine: boolean; matched: boolean };

export interface RunDetail {
  run: RunInfo;
  /** The figures, report, breakdowns and items shown: score.pl's or the repaired ones. */
  mode: "official" | "repaired";
  goldName: string | null;
  /** null when the run could not be scored (`problem`). */
  figures: RunFigures | null;
  problem: string | null;
  /** The official output, as `lexgold score` prints it (the totals). */
  report: string;
  byPos: GroupRow[];
  byLexelt: GroupRow[];
  items: ItemRow[];
  lines: { read: number; matched: number; refused: number };
  ignored: { outsideT?: number; repeats: number } | null;
  goldDiagnostics: Diagnostic[];
  systemDiagnostics: Diagnostic[];
  /**
   * Where score.pl's figures and the repaired ones differ (in either mode): both
   * sets of figures and each rule with the ids of the items it changed; else null.
   */
  repairs: { official: RunFigures; repaired: RunFigures; changes: RepairChange[] } | null;
}

export function itemRow(i: ItemScore | MwItem, type: RunType): ItemRow {
  if (type === "mw") {
    const m = i as MwItem;
    return { kind: "mw", line: m.line, id: m.id, lexelt: m.systemLexelt, answer: m.answer, mode: m.mode, genuine: m.genuine, matched: m.matched };
  }
  const s = i as ItemScore;
  return {
    kind: "substitution",
    line: s.line,
    id: s.id,
    lexelt: s.lexelt,
    guesses: s.guesses,
    mode: s.mode,
    modeHit: s.modeHit,
    credit: s.credit,
    score: s.score,
    humanResponses: s.humanResponses,
    truncated: s.truncated,
  };
}

/**
 * One run in full, scored against the gold it was uploaded with: the official
 * report, breakdowns per PoS and per lexelt, every attempted item, all diagnostics.
 */
export function runDetail(db: Db, actor: Actor, projectId: number, runId: number, mode: ScoreMode = {}): RunDetail {
  const { verboseReport: _v, ...detail } = detailOf(db, actor, projectId, runId, mode);
  return detail;
}

function detailOf(db: Db, actor: Actor, projectId: number, runId: number, asked: ScoreMode): RunDetail & { verboseReport: string } {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const mode = settled(project, asked);
  const run = runFile(db, actor, projectId, runId);
  const g = resolveGold(db, actor, project, sourceOfRun(run.goldId));
  const { content, ...info } = run;
  const empty = { byPos: [], byLexelt: [], items: [], lines: { read: 0, matched: 0, refused: 0 }, ignored: null, systemDiagnostics: [], repairs: null };
  const shown = mode.repaired ? ("repaired" as const) : ("official" as const);
  const gold = goldFor(g, run.type);
  if (!gold) return { run: info, mode: shown, goldName: null, figures: null, problem: missingGold(g, run.type), report: "", verboseReport: "", goldDiagnostics: [], ...empty };
  const byPos = scoreOne(g, run, "pos", mode)!;
  const goldDiagnostics = byPos.goldDiagnostics;
  if (hasErrors(goldDiagnostics)) {
    return { run: info, mode: shown, goldName: gold.name, figures: null, problem: `${gold.name} has errors; nothing scored.`, report: "", verboseReport: "", goldDiagnostics, ...empty };
  }
  const out = byPos.out;
  const result = out.result;
  const report = formatReport(result);
  let posRows: GroupRow[] = [];
  let lexeltRows: GroupRow[] = [];
  if (result.type !== "mw") {
    posRows = result.groups ?? [];
    const byLexelt = scoreOne(g, run, "lexelt", mode)!.out.result as SubstitutionResult;
    lexeltRows = byLexelt.groups ?? [];
  }
  // The other mode's figures and the rules behind the difference: a default run
  // holds them; in the repaired mode, score.pl's run is made for them.
  const officialOut = mode.repaired ? scoreOne(g, run, undefined, { reading: mode.reading })!.out : out;
  const diff = repairsOf(officialOut);
  const repairs = diff ? { official: figuresOf(officialOut.result), repaired: diff.figures, changes: diff.changes } : null;
  return {
    run: info,
    mode: shown,
    goldName: gold.name,
    figures: figuresOf(result),
    problem: null,
    report,
    verboseReport: formatReport(result, out.items),
    byPos: posRows,
    byLexelt: lexeltRows,
    items: out.items.map((i) => itemRow(i, run.type)),
    lines: out.lines,
    ignored: result.ignored,
    goldDiagnostics,
    systemDiagnostics: out.systemDiagnostics,
    repairs,
  };
}

/**
 * The text report of one run (against its own gold), for download (`verbose`: with the `-v` lines
 * first): score.pl's output, or in the repaired mode `lexgold score --repaired`'s.
 */
export function runReport(
  db: Db,
  actor: Actor,
  projectId: number,
  runId: number,
  verbose = false,
  mode: ScoreMode = {},
): { run: RunInfo; text: string } {
  const d = detailOf(db, actor, projectId, runId, mode);
  if (d.problem) throw new InputError(`${d.run.name}: ${d.problem}`, {}, d.goldDiagnostics.map(formatDiagnostic));
  return { run: d.run, text: verbose ? d.verboseReport : d.report };
}

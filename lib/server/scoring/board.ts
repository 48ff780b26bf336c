/**
 * The Scoring board from the outcomes kept per id of each stored run (#39; lib/server/derived/
 * run-items.ts): score.pl's figures, read as the project's language reads by default, added up in
 * the order a whole run adds them (so equal to a whole run's to the last bit: test/fuzz/derived.test.ts),
 * with the key's totals kept as answers change (the project's gold) or read once (a stored gold).
 * A board the kept outcomes cannot give — the repaired figures, the other reading, a run not kept
 * item by item yet — is scored whole instead, in the derivation process (scores.ts scoreBoard).
 * The repaired and UTF-8 figures beside a run come from the last whole scoring, computed in the
 * background and shown with its time.
 */
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { goldItems, scoringGolds, systemRuns, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Diagnostic, hasErrors, splitLines } from "../../lexsub/diagnostics";
import { type KeyTotals, type OutcomeSums } from "../../scorers/semeval2007/items";
import { KeyBuilder } from "../../scorers/semeval2007/key";
import { posOf } from "../../scorers/semeval2007/analysis";
import { MwKeyBuilder } from "../../scorers/semeval2007/mw";
import { mwJson, substitutionJson } from "../../scorers/semeval2007/report";
import { type Reading, readingFor } from "../../scorers/semeval2007/rules";
import { type Actor, requireProject } from "../kernel/actor";
import { NotFoundError } from "../kernel/errors";
import { all } from "../kernel/statements";
import { catchUpNow, countsOf, goldFileLines, sumRunOutcomes, computeSnapshot, readSnapshot } from "../derived/actor-free";
import { type GoldSource, listGolds, storedLabel } from "./golds";
import { type RunInfo, runColumns, sameGold } from "./runs";
import { type RunSummary, type ScoreBoard, type ScoreMode, scoreBoard } from "./scores";
import type { RunType } from "./uploads";

const GI = named(goldItems);

/** What a gold (or mwgold) file is to the key: its totals, its lines, its diagnostics. */
interface GoldFacts {
  totals: KeyTotals;
  lines: number;
  diagnostics: Diagnostic[];
}

/** A gold file's facts, read whole (a stored gold, read once; the project's gold when its lines have diagnostics). */
function goldFacts(lines: Iterable<string>, name: string, reading: Reading, mw: boolean): GoldFacts {
  let n = 0;
  if (mw) {
    const b = new MwKeyBuilder(name, reading);
    for (const l of lines) {
      if (l.trim() !== "") n++;
      b.push(l);
    }
    const { key, diagnostics } = b.finish();
    return { totals: { total: 0, totalWithMode: 0, groups: [], multiwords: key.total }, lines: n, diagnostics };
  }
  const b = new KeyBuilder(name, { reading });
  for (const l of lines) {
    if (l.trim() !== "") n++;
    b.push(l);
  }
  const { key, diagnostics } = b.finish();
  const groups = [...key.groupTotals(posOf)];
  return { totals: { total: key.total, totalWithMode: key.totalWithMode, groups, multiwords: 0 }, lines: n, diagnostics };
}

/** A stored gold's facts (gold and mwgold), read once per reading and kept (derived_snapshots). */
function storedGoldFacts(db: Db, projectId: number, goldId: number, reading: Reading): { gold: GoldFacts | null; mwgold: GoldFacts | null } {
  const kind = `stored-gold:${goldId}:${reading}`;
  const kept = readSnapshot<{ gold: GoldFacts | null; mwgold: GoldFacts | null }>(db, projectId, kind);
  if (kept) return kept.body;
  const g = db.select().from(scoringGolds).where(and(eq(scoringGolds.projectId, projectId), eq(scoringGolds.id, goldId))).get();
  if (!g) throw new NotFoundError("No such stored gold in this project.");
  const read = (text: string | null, name: string, mw: boolean) => (text === null ? null : goldFacts(splitLines(text).map((l) => (l.crlf ? l.text + "\r" : l.text)), name, reading, mw));
  const compute = () => ({ gold: read(g.goldText, g.goldName ?? `${g.name}.gold`, false), mwgold: read(g.mwgoldText, g.mwgoldName ?? `${g.name}.mwgold`, true) });
  // Kept only outside a transaction: a write inside a read transaction is refused at once
  // (SQLITE_BUSY, no busy wait) when another connection has committed since it began. The callers
  // keep them first (keepStoredGoldFacts); this is the safety net.
  if (db.$client.inTransaction) return compute();
  return computeSnapshot(db, projectId, kind, compute).body;
}

/**
 * Keep a stored gold's facts now, outside any transaction, so that the read transaction that
 * follows (keptScoreBoard, keptRunDetail) finds them kept and writes nothing.
 */
export function keepStoredGoldFacts(db: Db, projectId: number, goldId: number | null, reading: Reading): void {
  // A read-only connection (the derivation process's for a page) keeps nothing: the server kept them before it asked.
  if (goldId === null || db.$client.inTransaction || db.$client.readonly) return;
  const exists = db.select({ id: scoringGolds.id }).from(scoringGolds).where(and(eq(scoringGolds.projectId, projectId), eq(scoringGolds.id, goldId))).get();
  if (exists) storedGoldFacts(db, projectId, goldId, reading);
}

/** Keep the facts of the gold a board is scored against, before it is read elsewhere (a stored gold's; the project's are kept with its answers). */
export function keepBoardGoldFacts(db: Db, project: { id: number; language: string }, source: GoldSource): void {
  if (source.kind === "stored") keepStoredGoldFacts(db, project.id, source.id, readingFor(project.language));
}

/** Keep the facts of the gold a stored run is scored against, before its figures page is read elsewhere. */
export function keepRunGoldFacts(db: Db, project: { id: number; language: string }, runId: number): void {
  const run = db.select({ goldId: systemRuns.goldId }).from(systemRuns).where(and(eq(systemRuns.projectId, project.id), eq(systemRuns.id, runId))).get();
  keepStoredGoldFacts(db, project.id, run?.goldId ?? null, readingFor(project.language));
}

/** The project's gold's facts, from the counts kept with each instance's line; its diagnostics read whole only when a line has any. */
function projectGoldFacts(db: Db, projectId: number, projectName: string, reading: Reading): { gold: GoldFacts; mwgold: GoldFacts } {
  const c = countsOf(db, projectId);
  const n = (name: string) => c.get(name) ?? 0;
  const groups: [string, { total: number; totalWithMode: number }][] = [];
  for (const [name, v] of c) if (v > 0 && name.startsWith("key:T:")) groups.push([name.slice("key:T:".length), { total: v, totalWithMode: n(`key:TM:${name.slice("key:T:".length)}`) }]);
  // The key's order of groups: each group's first instance in T, in corpus order.
  const first = (g: string) =>
    all<{ lp: number; p: number }>(
      db,
      `select ${GI.lexeltPosition} as lp, ${GI.position} as p from ${GI.$} indexed by gold_items_key_group
        where ${GI.projectId} = ? and ${GI.keyGroup} = ? and ${GI.keyInT} = 1 order by ${GI.lexeltPosition}, ${GI.position} limit 1`,
      projectId,
      g,
    )[0] ?? { lp: Infinity, p: Infinity };
  const at = new Map(groups.map(([g]) => [g, first(g)]));
  groups.sort((a, b) => at.get(a[0])!.lp - at.get(b[0])!.lp || at.get(a[0])!.p - at.get(b[0])!.p);
  const diagnosed = (prefix: string) => n(`${prefix}:errors`) + n(`${prefix}:warnings`) > 0;
  // The file as downloaded: a blank line first, then the lines (so the diagnostics name the file's own line numbers).
  const file = (kind: "gold" | "mwgold") => ["", ...goldFileLines(db, projectId, kind)];
  const gold: GoldFacts = diagnosed("key")
    ? goldFacts(file("gold"), `${projectName}.gold`, reading, false)
    : { totals: { total: n("key:T"), totalWithMode: n("key:TM"), groups, multiwords: 0 }, lines: n("goldLines"), diagnostics: [] };
  const mwgold: GoldFacts = diagnosed("mwkey")
    ? goldFacts(file("mwgold"), `${projectName}.mwgold`, reading, true)
    : { totals: { total: 0, totalWithMode: 0, groups: [], multiwords: n("key:MW") }, lines: n("mwLines"), diagnostics: [] };
  return { gold, mwgold };
}

/** The facts of the gold runs are scored with (a stored gold, or the project's own when `stored` is null) and its files' names. */
export function keptGoldFacts(
  db: Db,
  project: { id: number; name: string },
  stored: typeof scoringGolds.$inferSelect | null,
  reading: Reading,
): { facts: { gold: GoldFacts | null; mwgold: GoldFacts | null }; names: { gold: string | null; mwgold: string | null } } {
  const facts = stored ? storedGoldFacts(db, project.id, stored.id, reading) : projectGoldFacts(db, project.id, project.name, reading);
  const names = stored
    ? { gold: stored.goldText === null ? null : (stored.goldName ?? `${stored.name}.gold`), mwgold: stored.mwgoldText === null ? null : (stored.mwgoldName ?? `${stored.name}.mwgold`) }
    : { gold: `${project.name}.gold`, mwgold: `${project.name}.mwgold` };
  return { facts, names };
}

/** The last whole scoring of a gold's runs (their repaired and UTF-8 figures), null when none was made yet. */
export function readBoardOthers(db: Db, projectId: number, source: GoldSource) {
  return readSnapshot<BoardOthers>(db, projectId, othersKind(source));
}

/** What the whole scoring of the runs gave beside score.pl's figures: each run's repaired and UTF-8 figures and the bootstrap intervals of its precision and recall. */
interface BoardOthers {
  runs: Record<string, Pick<RunSummary, "repaired" | "utf8"> & Partial<Pick<RunSummary, "intervals">>>;
}

/** The snapshot kind of a gold's whole scoring (the repaired and UTF-8 figures beside the kept ones). */
function othersKind(source: GoldSource): string {
  return `scoring:${source.kind === "project" ? "project" : source.id}`;
}

const countOf = (c: number) => Math.min(c, 10) + (c > 10 ? 1 : 0);

/** A run's row on the board from its kept outcomes. */
function summaryOf({ reader: readerJson, ...run }: RunInfo & { reader: string | null }, sums: OutcomeSums, others: BoardOthers | null): RunSummary {
  const reader = JSON.parse(readerJson ?? "null") as { refused: number; diagnostics: Diagnostic[] } | null;
  const readerErrors = reader?.diagnostics.filter((d) => d.severity === "error").length ?? 0;
  const readerWarnings = (reader?.diagnostics.length ?? 0) - readerErrors;
  // The scorer's warnings, as its log lists them: the first ten of each kind and a summary past them (substitution.ts).
  const scorerWarnings =
    run.type === "mw"
      ? countOf(sums.repeats)
      : countOf(sums.repeats) + countOf(sums.truncated) + countOf(sums.repeatedGuesses) + (sums.outsideT > 0 ? 1 : 0) + (sums.repeatedGuesses > 0 ? 1 : 0);
  const byPos = run.type === "mw" ? [] : [...sums.groups].map(([group, stats]) => ({ group, figures: substitutionJson(run.type as "best" | "oot", stats) }));
  const other = others?.runs[String(run.id)];
  return {
    run,
    figures: run.type === "mw" ? mwJson(sums.mw) : substitutionJson(run.type, sums.stats),
    problem: null,
    errors: readerErrors,
    warnings: readerWarnings + scorerWarnings,
    skipped: reader?.refused ?? 0,
    byPos,
    repaired: other?.repaired ?? null,
    utf8: other?.utf8 ?? null,
    intervals: other?.intervals ?? null,
  };
}

/**
 * The board from the kept outcomes, or null when they cannot give it (the repaired figures, the
 * other reading, a run not kept item by item yet: scores.ts scoreBoard scores those whole).
 * Coordinators of the project only.
 */
export function keptScoreBoard(db: Db, actor: Actor, projectId: number, source: GoldSource, asked: ScoreMode = {}): ScoreBoard | null {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const reading = readingFor(project.language);
  if (asked.repaired || (asked.reading !== undefined && asked.reading !== reading)) return null;
  catchUpNow(db, projectId);
  const goldId = source.kind === "stored" ? source.id : null;
  const stored = goldId === null ? null : db.select().from(scoringGolds).where(and(eq(scoringGolds.projectId, projectId), eq(scoringGolds.id, goldId))).get();
  if (goldId !== null && !stored) throw new NotFoundError("No such stored gold in this project.");
  const rows = db
    .select({ ...runColumns, reading: systemRuns.reading, reader: systemRuns.reader })
    .from(systemRuns)
    .leftJoin(users, eq(users.id, systemRuns.createdBy))
    .where(and(eq(systemRuns.projectId, projectId), sameGold(goldId)))
    .orderBy(asc(systemRuns.id))
    .all();
  if (rows.some((r) => r.reading !== reading)) return null;
  keepStoredGoldFacts(db, projectId, goldId, reading);
  return db.$client.transaction((): ScoreBoard => {
    const { facts, names } = keptGoldFacts(db, project, stored ?? null, reading);
    const others = readBoardOthers(db, projectId, source);
    const runs: RunSummary[] = rows.map(({ reading: _r, ...withReader }) => {
      const { reader: _reader, ...run } = withReader;
      const f = run.type === "mw" ? facts.mwgold : facts.gold;
      const name = run.type === "mw" ? names.mwgold : names.gold;
      const none = { errors: 0, warnings: 0, skipped: 0, byPos: [], repaired: null, utf8: null, intervals: null };
      if (!f || name === null) {
        return { run, figures: null, problem: run.type === "mw" ? "No mwgold file uploaded: mw runs are scored against an mwgold." : "No gold file uploaded: best and oot runs are scored against a gold.", ...none };
      }
      if (hasErrors(f.diagnostics)) return { run, figures: null, problem: `${name} has errors; nothing scored.`, ...none };
      return summaryOf(withReader, sumRunOutcomes(db, run.id, run.type as RunType, f.totals), others?.body ?? null);
    });
    const label = stored ? storedLabel(stored) : `the gold derived from ${project.name}'s responses`;
    return {
      mode: "official",
      reading,
      gold: { kind: source.kind, id: goldId, label, goldName: names.gold, mwgoldName: names.mwgold, items: facts.gold ? facts.gold.lines : null },
      golds: listGolds(db, actor, projectId),
      goldDiagnostics: [...(facts.gold?.diagnostics ?? []), ...(facts.mwgold?.diagnostics ?? [])],
      runs,
      // A run stored since the whole scoring (or never scored whole) has no repaired and UTF-8 figures yet.
      others: others
        ? { computedAt: others.computedAt.getTime(), stale: others.stale, missing: rows.some((r) => !(String(r.id) in others.body.runs)) }
        : { computedAt: null, stale: true, missing: rows.length > 0 },
    };
  })();
}


/**
 * Score the runs of a gold whole (scores.ts scoreBoard, score.pl's figures in the project's reading)
 * and keep what the kept outcomes do not give: each run's repaired and UTF-8 figures and its intervals. Slow for large
 * runs: the derivation process runs it (lib/server/jobs/derive-pool.ts refreshScoringOthers).
 */
export function computeBoardOthers(db: Db, actor: Actor, projectId: number, source: GoldSource): void {
  requireProject(db, actor, projectId, { coordinator: true });
  catchUpNow(db, projectId);
  computeSnapshot(db, projectId, othersKind(source), (): BoardOthers => {
    const whole = scoreBoard(db, actor, projectId, source, {});
    return { runs: Object.fromEntries(whole.runs.map((r) => [String(r.run.id), { repaired: r.repaired, utf8: r.utf8, intervals: r.intervals }])) };
  });
}

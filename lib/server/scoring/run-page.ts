/**
 * A run's figures page from its kept items (#39): the totals, the report and the breakdown per PoS
 * added up from the outcomes kept per id (lib/server/derived/run-items.ts, in the order a whole run
 * adds them, so they are a whole scoring's to the last digit: test/server/scoring/run-page.test.ts), and one
 * page of its attempted items, scored again from their kept first lines against their gold lines.
 * What the page costs grows with the run's ids only through one pass over its packed outcomes
 * (16 bytes each, a block of 256 at a time); the items shown are read by their places. The whole
 * list of items is a download (the verbose report, streamed); the breakdown per lexelt comes with
 * a whole scoring, asked for. A page the kept outcomes cannot give — the repaired figures, the
 * other reading, a run not kept item by item yet — is scored whole instead (scores.ts runDetail).
 */
import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { runItems, scoringGolds, systemRuns, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Diagnostic, hasErrors } from "../../lexsub/diagnostics";
import { type OutcomeSums } from "../../scorers/semeval2007/items";
import { mwJson, formatReport, substitutionJson } from "../../scorers/semeval2007/report";
import { type Reading, readingFor } from "../../scorers/semeval2007/rules";
import { mwScores } from "../../scorers/semeval2007/mw";
import { substitutionScores } from "../../scorers/semeval2007/substitution";
import { scoreTexts } from "../../scorers/semeval2007/texts";
import { type Actor, requireProject } from "../kernel/actor";
import { NotFoundError } from "../kernel/errors";
import { all } from "../kernel/statements";
import { catchUpNow, projectGoldLines, scanRunOutcomes } from "../derived/actor-free";
import { keepRunGoldFacts, keptGoldFacts, readBoardOthers } from "./board";
import { sourceOfRun } from "./golds";
import { runColumns } from "./runs";
import { type GroupRow, type ItemRow, type RunDetail, type ScoreMode, itemRow } from "./scores";
import type { RunType } from "./uploads";

const RI = named(runItems);
const SR = named(systemRuns);

/** Items per page of a run's figures. */
export const ITEMS_PAGE = 50;

/** Which items a page shows: its number (from 1), a text the item's line holds, only those without credit (not matched: mw), or one id. */
export interface ItemsQuery {
  page?: number;
  q?: string;
  missed?: boolean;
  item?: string;
}

/** The page of items shown, and how many there are. */
export interface ItemsPage {
  page: number;
  pageSize: number;
  /** Items the query finds (all attempted items without one). */
  found: number;
  /** Attempted items of the run. */
  attempted: number;
  q: string;
  missed: boolean;
  item: string | null;
}

/** A run's figures with a page of its items (`paged`), and no breakdown per lexelt (a whole scoring's). */
export type PagedRunDetail = RunDetail & { paged: ItemsPage };

/** The figures of a run from its sums, as a whole run's result. */
function resultOf(type: RunType, sums: OutcomeSums) {
  if (type === "mw") return { type: "mw" as const, stats: sums.mw, scores: mwScores(sums.mw), ignored: { repeats: sums.repeats }, diagnostics: [] as Diagnostic[] };
  return { type, stats: sums.stats, scores: substitutionScores(sums.stats), groups: null, ignored: { outsideT: sums.outsideT, repeats: sums.repeats, unscorable: sums.unscorable }, diagnostics: [] as Diagnostic[] };
}

/** The places of the run's ids whose first line holds `q` (case folded as SQLite's lower() folds), or that are `item`. */
function placesMatching(db: Db, runId: number, q: string, item: string | null): Set<number> | null {
  if (item !== null) return new Set(all<{ seq: number }>(db, `select ${RI.seq} as seq from ${RI.$} where ${RI.runId} = ? and ${RI.itemId} = ?`, runId, item).map((r) => r.seq));
  if (q === "") return null;
  const seqs = db.$client.prepare(`select ${RI.seq} from ${RI.$} where ${RI.runId} = ? and instr(lower(${RI.text}), lower(?)) > 0`).pluck().all(runId, q) as number[];
  return new Set(seqs);
}

/**
 * A run's figures page from its kept outcomes, or null when they cannot give it (see the file's
 * comment). Coordinators of the project only.
 */
export function keptRunDetail(db: Db, actor: Actor, projectId: number, runId: number, asked: ScoreMode = {}, query: ItemsQuery = {}): PagedRunDetail | null {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const reading = readingFor(project.language);
  if (asked.repaired || (asked.reading !== undefined && asked.reading !== reading)) return null;
  catchUpNow(db, projectId);
  keepRunGoldFacts(db, project, runId);
  return db.$client.transaction((): PagedRunDetail | null => {
    const row = db
      .select({ ...runColumns, reading: systemRuns.reading, reader: systemRuns.reader })
      .from(systemRuns)
      .leftJoin(users, eq(users.id, systemRuns.createdBy))
      .where(and(eq(systemRuns.projectId, projectId), eq(systemRuns.id, runId), eq(systemRuns.state, "stored")))
      .get();
    if (!row) throw new NotFoundError("No such run in this project.");
    const { reading: runReading, reader: readerJson, ...run } = row;
    if (runReading !== reading) return null;
    const stored = run.goldId === null ? null : (db.select().from(scoringGolds).where(and(eq(scoringGolds.projectId, projectId), eq(scoringGolds.id, run.goldId))).get() ?? null);
    const { facts, names } = keptGoldFacts(db, project, stored, reading);
    const f = run.type === "mw" ? facts.mwgold : facts.gold;
    const goldName = run.type === "mw" ? names.mwgold : names.gold;
    const q = (query.q ?? "").trim();
    const item = (query.item ?? "").trim() || null;
    const missed = query.missed === true;
    const paged: ItemsPage = { page: 1, pageSize: ITEMS_PAGE, found: 0, attempted: 0, q, missed, item };
    const reader = JSON.parse(readerJson ?? "null") as { read: number; matched: number; refused: number; diagnostics: Diagnostic[] } | null;
    const base = {
      run,
      mode: "official" as const,
      goldName,
      byLexelt: [] as GroupRow[],
      lines: { read: reader?.read ?? 0, matched: reader?.matched ?? 0, refused: reader?.refused ?? 0 },
      systemDiagnostics: reader?.diagnostics ?? [],
      paged,
    };
    const empty = { ...base, report: "", byPos: [], items: [], ignored: null, repairs: null };
    if (!f || goldName === null) {
      const problem = run.type === "mw" ? "No mwgold file uploaded: mw runs are scored against an mwgold." : "No gold file uploaded: best and oot runs are scored against a gold.";
      return { ...empty, goldName: null, figures: null, problem, goldDiagnostics: [] };
    }
    if (hasErrors(f.diagnostics)) return { ...empty, figures: null, problem: `${goldName} has errors; nothing scored.`, goldDiagnostics: f.diagnostics };

    // One pass over the kept outcomes: the sums, and the places of the attempted items the query finds.
    const only = placesMatching(db, runId, q, item);
    const found: number[] = [];
    const sums = scanRunOutcomes(db, runId, run.type, f.totals, (seq, o) => {
      if (!o.attempted) return;
      paged.attempted++;
      if (missed && (run.type === "mw" ? o.matched : o.score !== 0)) return;
      if (only && !only.has(seq)) return;
      found.push(seq);
    });
    paged.found = found.length;
    const pages = Math.max(1, Math.ceil(found.length / ITEMS_PAGE));
    paged.page = Math.min(pages, Math.max(1, Math.floor(query.page ?? 1)));
    const places = found.slice((paged.page - 1) * ITEMS_PAGE, paged.page * ITEMS_PAGE);

    const result = resultOf(run.type, sums);
    const figures = result.type === "mw" ? mwJson(result.stats) : substitutionJson(result.type, result.stats);
    const byPos: GroupRow[] = run.type === "mw" ? [] : [...sums.groups].map(([group, stats]) => ({ group, stats, scores: substitutionScores(stats) }));
    const other = readBoardOthers(db, projectId, sourceOfRun(run.goldId))?.body.runs[String(run.id)]?.repaired ?? null;
    return {
      ...base,
      figures,
      problem: null,
      report: formatReport(result),
      byPos,
      items: itemsAt(db, projectId, run, stored, places, reading),
      ignored: result.ignored,
      goldDiagnostics: f.diagnostics,
      repairs: other ? { official: figures, repaired: other.figures, changes: other.changes } : null,
    };
  })();
}

/** The items at some places of a run, scored again from their kept first lines against their gold lines (in the project's reading), in place order. */
function itemsAt(
  db: Db,
  projectId: number,
  run: { id: number; type: RunType; fileName: string },
  stored: typeof scoringGolds.$inferSelect | null,
  places: readonly number[],
  reading: Reading,
): ItemRow[] {
  if (places.length === 0) return [];
  const rows = all<{ id: string; seq: number; line: number; text: string }>(
    db,
    `select ${RI.itemId} as id, ${RI.seq} as seq, ${RI.line} as line, ${RI.text} as text from ${RI.$} indexed by run_items_seq
      where ${RI.runId} = ? and ${RI.seq} in (select value from json_each(?)) order by ${RI.seq}`,
    run.id,
    JSON.stringify(places),
  );
  const mw = run.type === "mw";
  let gold: string;
  if (stored) gold = (mw ? stored.mwgoldText : stored.goldText) ?? "";
  else {
    const lines = projectGoldLines(db, projectId, rows.map((r) => r.id));
    gold = rows.map((r) => (mw ? lines.get(r.id)?.mwLine : lines.get(r.id)?.line) ?? null).filter((l): l is string => l !== null).join("\n");
  }
  const out = scoreTexts({ type: run.type, system: rows.map((r) => r.text).join("\n"), gold, systemName: run.fileName, goldName: "gold", reading });
  const lineOf = new Map(rows.map((r) => [r.id, r.line]));
  return out.items.map((i) => ({ ...itemRow(i, run.type), line: lineOf.get(i.id) ?? i.line }));
}

/**
 * What the Gold page reads (issue #5): the derived gold and the lemma review from
 * one load of the project's inputs, filtered and cut into pages, plus the
 * sentence and the typed answers for the instances of one page only, so that a
 * project with thousands of forms and instances renders a page's worth of rows.
 * Coordinators of the project only; decisions are recorded by lib/server/gold/gold.ts.
 */
import "server-only";
import { InputError } from "../kernel/errors";
import { FLAG_KINDS, type FlagKind, flaggedInstanceIds } from "../annotate";
import { csvCell, neutraliseCell } from "../../lexsub/formats/spreadsheet";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { adjudications, goldReviewLog, instances, lexelts, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type AppliedProposal, type GoldItem, type GoldProblem, type GoldSummary } from "../../lexsub/gold";
import { type AnswerKind } from "../../lexsub/types";
import { itemPairwise } from "../../lexsub/agreement";
import { formatAnswer, writeResponsesTsv } from "../../lexsub/formats/responses";
import { type AdjudicationRecord, loadRecords } from "./adjudication";
import { type Actor, type ProjectRow, requireProject } from "../kernel/actor";
import { type LemmaReviewEntry, goldInputs, goldReviewHistory, scopedGoldInputs } from "./gold";
import { excludedParticipantNames } from "./gold-responses";
import { modelUserNames } from "../kernel/model-users";
import { describeReviewLog, type ReviewLogRow } from "./review-log";
import { type ItemFilter, countItems, keepsEvery, pageItems, placeOf } from "./gold-items";
import {
  instanceInputs,
  deriveInstance,
  formsOf,
  catchUpNow,
  queuedCount,
  countsOf,
  firstProblems,
  goldSummaryOf,
  type LemmaReviewFilter,
  type OpenProposals,
  lemmaReviewCounts,
  lemmaReviewSlice,
  openProposalsOf,
  problemCount as countProblems,
} from "../derived/actor-free";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const L = named(lexelts, "l");
const I = named(instances, "i");
const A = named(adjudications);

export type { ReviewLogRow };

/** One page of a longer list. `page` is 1-based and clamped to the pages there are. */
export interface Paged<T> {
  rows: T[];
  /** Rows after filtering (all pages). */
  total: number;
  page: number;
  pages: number;
  pageSize: number;
  /** 0-based index of the first row shown in the filtered list. */
  start: number;
}

const LEMMA_PAGE_SIZE = 100;
const INSTANCE_PAGE_SIZE = 20;
/** Lexelts the Gold page's filter lists to choose from; past this many, the lexelt is typed. */
export const LEXELT_CHOICES = 300;
/** Derivation problems the Gold page lists; all of them are in the problems download (`goldProblemsTsv`). */
export const LISTED_PROBLEMS = 50;
/** The open lemma proposals the Gold page lists (the lemma review lists them all). */
const LISTED_PROPOSALS = 50;
const MAX_PAGE_SIZE = 500;

function pageNumber(p: unknown): number {
  const n = typeof p === "number" ? p : Number(p);
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}

/** A page size as asked, kept within 1 … MAX_PAGE_SIZE. */
function pageSizeOf(pageSize: number): number {
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(pageSize) || 1));
}

/** Where page `page` falls among `total` rows in pages of `pageSize`: the page clamped to those there are. */
function pagePlace(total: number, page: unknown, pageSize: number): Omit<Paged<never>, "rows"> {
  const size = pageSizeOf(pageSize);
  const pages = Math.max(1, Math.ceil(total / size));
  const p = Math.min(pageNumber(page), pages);
  return { total, page: p, pages, pageSize: size, start: (p - 1) * size };
}

/** Cut `all` into pages of `pageSize` (1 … MAX_PAGE_SIZE) and return page `page`. */
export function pageOf<T>(all: readonly T[], page: unknown, pageSize: number): Paged<T> {
  const at = pagePlace(all.length, page, pageSize);
  return { rows: all.slice(at.start, at.start + at.pageSize), ...at };
}

/** A page of the lemma review: which forms (lib/server/derived/lemma-review.ts, filtered there by SQLite) and which page. */
export interface LemmaQuery extends LemmaReviewFilter {
  page?: unknown;
  pageSize?: number;
}

/** The review queue's orders: as in the corpus, or lowest per-item pairwise agreement first. */
export type InstanceOrder = "corpus" | "agreement";

export interface InstanceQuery {
  /** Only instances this annotator answered (by name). */
  annotator?: string;
  /** Only instances marked reviewed ("yes") or not ("no"). */
  reviewed?: "yes" | "no" | "";
  /** corpus (default) or agreement: lowest per-item pairwise agreement first, items without one last. */
  order?: InstanceOrder;
  /** Only instances an annotator flagged: "any" flag, or one kind (unsure, typo, name, other). */
  flag?: string;
  /** The lexelt item as loaded (`stand.n`, also after a PoS correction). */
  lexelt?: string;
  /** Only instances without a mode (not in T, or a tie). */
  noMode?: boolean;
  /** Only instances not in T (|H_i| < 2). */
  notInT?: boolean;
  /** Only excluded instances. */
  excluded?: boolean;
  /** Only instances where someone gave a multiword. */
  multiword?: boolean;
  page?: unknown;
  pageSize?: number;
  /** Without `page`: open the page that holds this instance id (links from the Agreement tab). */
  instance?: string;
  /**
   * In agreement order: instances the coordinator has made a decision on during this visit, with the
   * agreement they were ranked by before it. They keep that rank, so a decision does not move the
   * instance (and the coordinator's place) elsewhere in the queue; its badge shows the agreement now.
   */
  hold?: Readonly<Record<string, number | null>>;
}

interface LemmaCounts {
  /** Distinct typed forms. */
  forms: number;
  /** Forms the lemmatiser would change. */
  changed: number;
  /** Forms without a decision. */
  open: number;
  /** Changed forms without a decision: what the coordinator still has to look at. */
  openChanged: number;
}

interface GoldOverview {
  project: ProjectRow;
  summary: GoldSummary;
  /** The derivation's first LISTED_PROBLEMS problems (25,000 in a large project were most of the page and its render). */
  problems: GoldProblem[];
  /** How many problems the derivation has. */
  problemCount: number;
  lemmas: LemmaCounts;
  /** The lexelt items as loaded, in corpus order — when there are at most LEXELT_CHOICES (the filter lists them); else none. */
  lexelts: string[];
  /** How many lexelts the project has. */
  lexeltCount: number;
  /** Lines in the gold and mwgold files as they download now. */
  files: { goldLines: number; mwLines: number };
  /**
   * The proposals nobody has decided: what the "with proposals applied" download
   * would write instead of the form as typed (most used first; the plain downloads
   * apply none). Forms as the review keys them (case folded).
   */
  /** The lemma proposals nobody decided (the downloads write those forms as typed): how many, their answers, the first LISTED_PROPOSALS. */
  openProposals: OpenProposals;
  /** Annotators who answered in the project, by name. */
  annotators: string[];
  /** Instances marked reviewed. */
  reviewedCount: number;
  /** Active adjudications (strikes and corrections). */
  adjudicationCount: number;
  /** Responses left out of the gold: saved after the annotator was shown the instance's known answers in the training. */
  afterKnownAnswers: number;
  /** Instances whose figures are still being brought up to date (after a change to many of them): the rest is current. */
  queued: number;
}

/** One annotator's answer as typed (before normalisation and the lemma table). */
export interface TypedAnswer {
  annotator: string;
  kind: AnswerKind;
  substitutes: string[];
  multiword: string | null;
}

export interface ReviewInstance {
  item: GoldItem;
  /** The instance text (tokenised, as loaded): the target is `head`. */
  before: string;
  head: string;
  after: string;
  /** What each annotator typed, by annotator name. */
  typed: TypedAnswer[];
  /** The item's pairwise agreement after adjudication (null: not in T, fewer than two annotators with substitutes, excluded). */
  pairwise: number | null;
  /** Every decision on the instance's responses (active and undone), oldest first. */
  adjudications: (AdjudicationRecord & { stale: boolean })[];
  /** Who marked the instance reviewed, and when; null when not reviewed. */
  reviewed: { by: string | null; at: Date } | null;
}

export interface GoldPageData extends GoldOverview {
  lemmaPage: Paged<LemmaReviewEntry>;
  instancePage: Paged<ReviewInstance>;
}

/**
 * Everything the Gold page shows, from the figures kept as answers change (#39,
 * lib/server/derived): the summary, counts and problems of the project's gold, a page of the
 * lemma review (as lemmaReview orders it) and a page of gold items, found and counted by
 * SQLite over the kept rows, and derived again (through the same code) for their cards only.
 * The queue of changes is caught up with first (a connection of the server leaves that to
 * the page: lib/server/derived/queue.ts catchUp).
 */
export function goldPageData(
  db: Db,
  actor: Actor,
  projectId: number,
  q: { lemmas?: LemmaQuery; instances?: InstanceQuery; /** The view's page only (the other comes back empty): the page shows one view at a time. */ only?: "lemmas" | "instances" | "neither" } = {},
): GoldPageData {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  catchUpNow(db, projectId);
  const language = project.language;
  // One read transaction: the counts, the lemma review and the page are one snapshot.
  return db.$client.transaction(() => {
    const counts = countsOf(db, projectId);
    const summary = goldSummaryOf(counts);
    // The lemma review counted and cut by SQLite over the kept forms: never built whole for a page.
    const lemmas: LemmaCounts = lemmaReviewCounts(db, projectId);
    const lexeltItems = lexeltsWithInstances(db, projectId, LEXELT_CHOICES);
    const lq = q.lemmas ?? {};
    let lemmaPlace = pagePlace(0, 1, lq.pageSize ?? LEMMA_PAGE_SIZE);
    // A page of the lemma review and a page of gold items are the page's most expensive reads: only the view's own.
    const lemmaRows =
      q.only === undefined || q.only === "lemmas"
        ? lemmaReviewSlice(db, projectId, language, lq, (total) => {
            lemmaPlace = pagePlace(total, lq.page, lq.pageSize ?? LEMMA_PAGE_SIZE);
            return { start: lemmaPlace.start, size: lemmaPlace.pageSize };
          }).rows
        : [];
    const lemmaPage: Paged<LemmaReviewEntry> = { ...lemmaPlace, rows: lemmaRows };
    const iq = q.instances ?? {};
    let only: string[] | undefined;
    if (iq.flag) {
      // Flags live in their own table (lib/server/annotate/flags.ts).
      const kind = iq.flag === "any" ? undefined : (FLAG_KINDS as readonly string[]).includes(iq.flag) ? (iq.flag as FlagKind) : null;
      if (kind === null) throw new InputError(`Unknown flag "${iq.flag.slice(0, 40)}": any, ${FLAG_KINDS.join(", ")}.`, { flag: "Unknown flag." });
      only = flaggedInstanceIds(db, actor, projectId, kind);
    }
    const filter: ItemFilter = { ...iq, order: iq.order === "agreement" ? "agreement" : "corpus", only };
    // Every instance kept: as many as the counts keep (a gold_items row adds 1 to "instances"), not counted row by row (#39).
    const total = keepsEvery(filter) ? (counts.get("instances") ?? 0) : countItems(db, projectId, filter);
    const size = pageSizeOf(iq.pageSize ?? INSTANCE_PAGE_SIZE);
    let wanted = iq.page;
    if ((wanted === undefined || wanted === null || wanted === "") && iq.instance) {
      const at = placeOf(db, projectId, filter, iq.instance);
      if (at >= 0) wanted = Math.floor(at / size) + 1;
    }
    const instancePlace = pagePlace(total, wanted, size);
    const { start } = instancePlace;
    const refs = q.only === undefined || q.only === "instances" ? pageItems(db, projectId, filter, start, size) : [];
    const texts = loadTexts(db, projectId, refs.map((r) => r.instanceId));
    const decisions = new Map<string, AdjudicationRecord[]>();
    for (const a of loadRecords(db, projectId, { instanceRefs: refs.map((r) => r.ref) })) {
      let list = decisions.get(a.instanceId);
      if (!list) decisions.set(a.instanceId, (list = []));
      list.push(a);
    }
    const rows: ReviewInstance[] = [];
    for (const { ref, instanceId } of refs) {
      // The card: the instance derived again through the same code as its kept figures.
      const inputs = instanceInputs(db, projectId, ref, (b) => formsOf(b, language));
      if (!inputs) continue;
      const d = deriveInstance(inputs, language);
      const t = texts.get(instanceId) ?? { before: "", head: "", after: "", ref, reviewedAt: null, reviewedBy: null };
      rows.push({
        item: d.item,
        before: t.before,
        head: t.head,
        after: t.after,
        typed: d.typed.map((r) => ({ annotator: r.annotator, kind: r.kind, substitutes: r.substitutes, multiword: r.multiword })),
        pairwise: itemPairwise(d.item),
        adjudications: (decisions.get(instanceId) ?? []).map((a) => ({ ...a, stale: a.undoneAt === null && d.stale.has(a.id) })),
        reviewed: t.reviewedAt ? { by: t.reviewedBy, at: t.reviewedAt } : null,
      });
    }
    const problemCount = countProblems(counts);
    return {
      project,
      summary,
      problems: firstProblems(db, projectId, LISTED_PROBLEMS),
      problemCount,
      lemmas,
      // A list to choose from only while it is short: 10,000 options were most of the page's HTML and its render.
      lexelts: lexeltItems.items,
      lexeltCount: lexeltItems.count,
      files: { goldLines: summary.goldLines, mwLines: summary.mwLines },
      openProposals: openProposalsOf(db, projectId, language, LISTED_PROPOSALS),
      annotators: typedAnnotators(counts),
      reviewedCount: counts.get("reviewed") ?? 0,
      adjudicationCount: activeAdjudications(db, projectId),
      afterKnownAnswers: counts.get("afterKnownAnswers") ?? 0,
      lemmaPage,
      instancePage: { ...instancePlace, rows },
      queued: queuedCount(db, projectId),
    };
  })();
}

/** The annotators whose answers count in the gold, by name (from the kept counts). */
function typedAnnotators(counts: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  for (const [name, n] of counts) if (n > 0 && name.startsWith("typed:")) out.push(name.slice("typed:".length));
  return out.sort();
}

/** The lexelt items of the project that hold instances, in corpus order, when there are at most `most` (else none), and how many there are. */
function lexeltsWithInstances(db: Db, projectId: number, most: number): { items: string[]; count: number } {
  const first = db.$client
    .prepare(`select ${L.item} from ${L.$} where ${L.projectId} = ? and exists (select 1 from ${I.$} where ${I.lexeltId} = ${L.id}) order by ${L.position} limit ?`)
    .pluck()
    .all(projectId, most + 1) as string[];
  if (first.length <= most) return { items: first, count: first.length };
  // More than a list shows: only counted (their names were read for nothing, 4,167 at 100,000 instances).
  const count = db.$client.prepare(`select count(*) from ${L.$} where ${L.projectId} = ? and exists (select 1 from ${I.$} where ${I.lexeltId} = ${L.id})`).pluck().get(projectId) as number;
  return { items: [], count };
}

/** Active adjudications (strikes and corrections) of the project. */
function activeAdjudications(db: Db, projectId: number): number {
  return (db.$client.prepare(`select count(*) from ${A.$} where ${A.projectId} = ? and ${A.undoneAt} is null`).pluck().get(projectId) as number) ?? 0;
}

/** Ids per query: SQLite's default limit on bound parameters is far above a page, but stay well under it. */
const CHUNK = 500;

function chunks<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

function loadTexts(db: Db, projectId: number, ids: readonly string[]) {
  const out = new Map<string, { before: string; head: string; after: string; ref: number; reviewedAt: Date | null; reviewedBy: string | null }>();
  for (const part of chunks(ids)) {
    const rows = db
      .select({
        ref: instances.id,
        instanceId: instances.instanceId,
        before: instances.before,
        head: instances.head,
        after: instances.after,
        reviewedAt: instances.reviewedAt,
        reviewedBy: users.name,
      })
      .from(instances)
      .leftJoin(users, eq(users.id, instances.reviewedBy))
      .where(and(eq(instances.projectId, projectId), inArray(instances.instanceId, part)))
      .all();
    for (const r of rows) out.set(r.instanceId, r);
  }
  return out;
}

/**
 * The instance text for some instances of the project: before, head and after as
 * loaded, by instance id (ids not in the project are left out).
 */
export function instanceTexts(db: Db, actor: Actor, projectId: number, instanceIds: readonly string[]): Map<string, { before: string; head: string; after: string }> {
  requireProject(db, actor, projectId, { coordinator: true });
  const out = new Map<string, { before: string; head: string; after: string }>();
  for (const [id, t] of loadTexts(db, projectId, instanceIds)) out.set(id, { before: t.before, head: t.head, after: t.after });
  return out;
}

const LOG_COLUMNS = ["at", "by", "kind", "target", "decision", "value", "annotator", "substitute", "reason"] as const;

function logCells(r: ReviewLogRow): string[] {
  return [r.at.toISOString(), r.by ?? "(command line)", r.kind, r.target, r.decision, r.value, r.annotator, r.substitute, r.reason];
}

function reviewLogRows(db: Db, actor: Actor, projectId: number): ReviewLogRow[] {
  return goldReviewHistory(db, actor, projectId, Number.MAX_SAFE_INTEGER).reverse().map(describeReviewLog);
}

/**
 * The review log as CSV, oldest first: when (ISO, UTC), who, what kind, the
 * target (form or instance id), the decision and the value (the lemma, the
 * exclusion reason, the PoS or the corrected substitute; empty when reverted),
 * and for adjudications whose response, the substitute and the reason.
 */
export function goldReviewCsv(db: Db, actor: Actor, projectId: number): string {
  const lines = [LOG_COLUMNS.join(",")];
  for (const r of reviewLogRows(db, actor, projectId)) lines.push(logCells(r).map(csvCell).join(","));
  return lines.join("\r\n") + "\r\n";
}

const PROBLEM_TSV_COLUMNS = ["lexelt", "instance", "annotator", "problem"] as const;

/** Every problem of a gold derivation as TSV, in the derivation's order (tabs and line breaks in cells read as spaces). */
export function goldProblemsTsv(problems: readonly GoldProblem[]): string {
  const lines = [PROBLEM_TSV_COLUMNS.join("\t")];
  for (const p of problems) lines.push([p.lexelt, p.instanceId, p.annotator ?? "", p.message].map((c) => neutraliseCell(c.replace(/[\t\r\n]+/g, " "))).join("\t"));
  return lines.join("\n") + "\n";
}

/** The review log as TSV (the same columns and rows as the CSV; tabs and line breaks in cells read as spaces). */
export function goldReviewTsv(db: Db, actor: Actor, projectId: number): string {
  const lines = [LOG_COLUMNS.join("\t")];
  for (const r of reviewLogRows(db, actor, projectId)) lines.push(logCells(r).map((c) => neutraliseCell(c.replace(/[\t\r\n]+/g, " "))).join("\t"));
  return lines.join("\n") + "\n";
}

const LOG_PAGE_SIZE = 50;

/** One page of the review log, newest first (the count is one indexed query; the page one more). */
export function reviewLogPage(db: Db, actor: Actor, projectId: number, page: unknown, pageSize = LOG_PAGE_SIZE): Paged<ReviewLogRow> {
  requireProject(db, actor, projectId, { coordinator: true });
  const total = db.select({ n: count() }).from(goldReviewLog).where(eq(goldReviewLog.projectId, projectId)).get()?.n ?? 0;
  const at = pagePlace(total, page, pageSize);
  const rows = db
    .select({ kind: goldReviewLog.kind, target: goldReviewLog.target, value: goldReviewLog.value, by: users.name, at: goldReviewLog.at })
    .from(goldReviewLog)
    .leftJoin(users, eq(users.id, goldReviewLog.userId))
    .where(eq(goldReviewLog.projectId, projectId))
    .orderBy(desc(goldReviewLog.id))
    .limit(at.pageSize)
    .offset(at.start)
    .all();
  return { ...at, rows: rows.map(describeReviewLog) };
}

/**
 * The project's responses as TSV (coordinators only), as exportResponses writes
 * them, plus two columns when any response is adjudicated: `adjudicated` (the
 * answer the gold counts: the substitutes after strikes and corrections,
 * `STRUCK` for a struck response) and `adjudication` (the decisions, e.g.
 * `struck "x" by coord; corrected "y" to "z" by coord`; a multiword decision as
 * `multiword "x y" corrected to "x z" by coord`, or `… struck: not a multiword`,
 * while the adjudicated answer column stays the substitutes). The reader accepts
 * and ignores these columns, so the file imports back as the annotators gave it.
 * The answers of participants left out of the gold (lib/server/crowd/participants.ts
 * excludeRejected) are kept, as given, and marked: `adjudicated` LEFT OUT, and the
 * decision in `adjudication`; so are the answers saved after the training showed the
 * instance's known answers to their annotator (goldInputs' afterKnownAnswers).
 */
export function exportAdjudicatedResponses(db: Db, actor: Actor, projectId: number): string {
  const inputs = goldInputs(db, actor, projectId);
  const leftOut = excludedParticipantNames(db, projectId);
  const shown = inputs.afterKnownAnswers;
  const all = leftOut.size === 0 && shown.length === 0 ? inputs.typed : scopedGoldInputs(db, inputs.project, { withExcludedParticipants: true, withShownAnswers: true }).typed;
  // The people's answers: a model counted as an annotator has its own export (lib/server/models).
  const models = modelUserNames(db, projectId);
  const rows = models.size === 0 ? all : all.filter((r) => !models.has(r.annotator));
  if (inputs.adjudications.length === 0 && leftOut.size === 0 && shown.length === 0) return writeResponsesTsv(rows);
  const key = (i: string, a: string) => `${i}\t${a}`;
  const afterShown = new Set(shown.map((r) => key(r.instanceId, r.annotator)));
  const after = new Map(inputs.responses.map((r) => [key(r.instanceId, r.annotator), r]));
  const notes = new Map<string, string[]>();
  for (const a of inputs.adjudications) {
    if (inputs.staleAdjudications.has(a.id)) continue;
    const k = key(a.instanceId, a.annotator);
    let list = notes.get(k);
    if (!list) notes.set(k, (list = []));
    const by = `by ${a.decidedBy ?? "command line"} ${a.decidedAt.toISOString()}`;
    const why = a.reason ? ` (${a.reason})` : "";
    if (a.action === "strike-response") list.push(`response struck ${by}${why}`);
    else if (a.action === "strike") list.push(`struck "${a.substitute}" ${by}${why}`);
    else if (a.action === "multiword") list.push(a.value === null ? `multiword "${a.substitute}" struck: not a multiword ${by}${why}` : `multiword "${a.substitute}" corrected to "${a.value}" ${by}${why}`);
    else list.push(`corrected "${a.substitute}" to "${a.value}" ${by}${why}`);
  }
  return writeResponsesTsv(rows, {
    adjudication: (r) => {
      const out = leftOut.get(r.annotator);
      if (out) return { answer: "LEFT OUT", note: `participant left out of the gold by ${out.by ?? "command line"} ${out.at.toISOString()}` };
      const k = key(r.instanceId, r.annotator);
      if (afterShown.has(k)) return { answer: "LEFT OUT", note: "answered after its known answers were shown in the training" };
      const n = notes.get(k);
      if (!n) return null;
      const a = after.get(k);
      return { answer: a ? formatAnswer(a) : "STRUCK", note: n.join("; ") };
    },
  });
}

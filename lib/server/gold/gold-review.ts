/**
 * What the Gold page reads (issue #5): the derived gold and the lemma review from
 * one load of the project's inputs, filtered and cut into pages, plus the
 * sentence and the typed answers for the instances of one page only, so that a
 * project with thousands of forms and instances renders a page's worth of rows.
 * Coordinators of the project only; decisions are recorded by lib/server/gold/gold.ts.
 */
import "server-only";
import { InputError } from "../kernel/errors";
import { FLAG_KINDS, type FlagKind, flaggedInstanceIds } from "../annotate/flags";
import { csvCell, neutraliseCell } from "../../lexsub/formats/spreadsheet";
import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { goldReviewLog, instances, responses, users } from "../../../db/schema";
import { type AppliedProposal, type GoldItem, type GoldProblem, type GoldSummary, formatGold, formatMwGold } from "../../lexsub/gold";
import { buildLemmaReview, lemmaTable, normaliseForm } from "../../lexsub/normalize";
import { type AnswerKind } from "../../lexsub/types";
import { itemPairwise } from "../../lexsub/agreement";
import { formatAnswer, writeResponsesTsv } from "../../lexsub/formats/responses";
import { type AdjudicationRecord, loadRecords } from "./adjudication";
import { type Actor, type ProjectRow, requireProject } from "../kernel/actor";
import { type LemmaReviewEntry, deriveProjectGold, goldInputs, goldReviewHistory, lemmaProposer, scopedGoldInputs } from "./gold";
import { excludedParticipantNames } from "./gold-responses";
import { modelUserNames } from "../kernel/model-users";
import { describeReviewLog, type ReviewLogRow } from "./review-log";

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
const MAX_PAGE_SIZE = 500;

function pageNumber(p: unknown): number {
  const n = typeof p === "number" ? p : Number(p);
  return Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1;
}

/** Cut `all` into pages of `pageSize` (1 … MAX_PAGE_SIZE) and return page `page`. */
export function pageOf<T>(all: readonly T[], page: unknown, pageSize: number): Paged<T> {
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(pageSize) || 1));
  const pages = Math.max(1, Math.ceil(all.length / size));
  const p = Math.min(pageNumber(page), pages);
  const start = (p - 1) * size;
  return { rows: all.slice(start, start + size), total: all.length, page: p, pages, pageSize: size, start };
}

export interface LemmaQuery {
  /** Forms containing this text (normalised as forms are: trimmed, single spaces, lower case). */
  contains?: string;
  /** Only forms not reviewed yet. */
  open?: boolean;
  /** Only forms the lemmatiser would change. */
  changed?: boolean;
  page?: unknown;
  pageSize?: number;
}

/** The review rows the query keeps, in the review's order (changed first, then by frequency). */
export function filterLemmaReview<T extends { form: string; decision: unknown; changed: boolean }>(rows: readonly T[], q: LemmaQuery): T[] {
  const needle = normaliseForm(q.contains ?? "");
  return rows.filter((r) => (!needle || r.form.includes(needle)) && (!q.open || r.decision === null) && (!q.changed || r.changed));
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
  /**
   * Hook for filters that need data loaded elsewhere (annotator flags, issue #15's
   * "filter by flag"): an instance is kept only when this returns true.
   */
  keep?: (instanceId: string) => boolean;
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

/** What filterGoldItems needs beyond the items: who answered what, and which instances are reviewed. */
export interface InstanceFacts {
  /** instance id → names of the annotators who answered it (as typed, before adjudication). */
  answeredBy?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Instance ids marked reviewed. */
  reviewed?: ReadonlySet<string>;
}

/** The gold items the query keeps, in corpus order. Every condition given must hold. */
export function filterGoldItems(items: readonly GoldItem[], q: InstanceQuery, facts: InstanceFacts = {}): GoldItem[] {
  return items.filter(
    (i) =>
      (!q.lexelt || i.originalLexelt === q.lexelt) &&
      (!q.noMode || i.mode === null) &&
      (!q.notInT || !i.inT) &&
      (!q.excluded || i.excluded !== null) &&
      (!q.multiword || i.mwLine !== null) &&
      (!q.annotator || (facts.answeredBy?.get(i.instanceId)?.has(q.annotator) ?? false)) &&
      (!q.reviewed || (facts.reviewed?.has(i.instanceId) ?? false) === (q.reviewed === "yes")) &&
      (!q.keep || q.keep(i.instanceId)),
  );
}

/**
 * The review queue's order: lowest per-item pairwise agreement first (the
 * measure of lib/lexsub/agreement/pairwise.ts), items without one (not in T, fewer than
 * two annotators with substitutes, excluded) after them; ties in corpus order. Held
 * instances (InstanceQuery.hold) are ranked by the agreement given for them.
 * O(n log n) over the items kept, each item's agreement O(annotators²): on top of
 * the derivation every Gold page view runs anyway, 100,000 items of five
 * annotators are scored and sorted in about 0.1 s on the 2-core machine.
 */
function byDisagreement(items: readonly GoldItem[], hold: Readonly<Record<string, number | null>> = {}): { item: GoldItem; pairwise: number | null }[] {
  const scored = items.map((item, at) => {
    const pairwise = itemPairwise(item);
    const rank = Object.hasOwn(hold, item.instanceId) ? hold[item.instanceId] : pairwise;
    return { item, pairwise, rank, at };
  });
  scored.sort((a, b) => {
    if (a.rank === null || b.rank === null) return a.rank === b.rank ? a.at - b.at : a.rank === null ? 1 : -1;
    return a.rank - b.rank || a.at - b.at;
  });
  return scored.map(({ item, pairwise }) => ({ item, pairwise }));
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
  openProposals: AppliedProposal[];
  /** Annotators who answered in the project, by name. */
  annotators: string[];
  /** Instances marked reviewed. */
  reviewedCount: number;
  /** Active adjudications (strikes and corrections). */
  adjudicationCount: number;
  /** Responses left out of the gold: saved after the annotator was shown the instance's known answers in the training. */
  afterKnownAnswers: number;
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
 * Everything the Gold page shows, from one load of the inputs: the summary and
 * problems of the derivation (as projectGold derives it), a page of the lemma
 * review (as lemmaReview orders it) and a page of gold items with their texts.
 */
export function goldPageData(db: Db, actor: Actor, projectId: number, q: { lemmas?: LemmaQuery; instances?: InstanceQuery } = {}): GoldPageData {
  const inputs = goldInputs(db, actor, projectId);
  const language = inputs.project.language;
  const table = lemmaTable(inputs.lemmaRows, language);
  const result = deriveProjectGold(inputs);
  // lemmaReview's rows, from the same inputs.
  const byForm = new Map(inputs.lemmaRows.map((r) => [normaliseForm(r.form, language), r]));
  const review: LemmaReviewEntry[] = buildLemmaReview(inputs.responses, undefined, table, { propose: lemmaProposer(language), unreviewed: "keep", language }).map((row) => {
    const d = byForm.get(row.form);
    return { ...row, decidedBy: d?.decidedBy ?? null, decidedAt: d?.decidedAt ?? null };
  });

  const lemmas: LemmaCounts = { forms: review.length, changed: 0, open: 0, openChanged: 0 };
  for (const r of review) {
    if (r.changed) lemmas.changed++;
    if (r.decision === null) lemmas.open++;
    if (r.changed && r.decision === null) lemmas.openChanged++;
  }
  const lexeltItems: string[] = [];
  const seen = new Set<string>();
  const reviewed = new Set<string>();
  for (const i of inputs.instances) {
    if (!seen.has(i.lexelt)) seen.add(i.lexelt), lexeltItems.push(i.lexelt);
    if (i.reviewedAt !== null) reviewed.add(i.instanceId);
  }
  const answeredBy = new Map<string, Set<string>>();
  const annotatorNames = new Set<string>();
  for (const r of inputs.typed) {
    let who = answeredBy.get(r.instanceId);
    if (!who) answeredBy.set(r.instanceId, (who = new Set()));
    who.add(r.annotator);
    annotatorNames.add(r.annotator);
  }

  const lq = q.lemmas ?? {};
  const lemmaPage = pageOf(filterLemmaReview(review, lq), lq.page, lq.pageSize ?? LEMMA_PAGE_SIZE);
  let iq = q.instances ?? {};
  if (iq.flag) {
    // Flags live in their own table (lib/server/annotate/flags.ts); the query carries the kind, not a function,
    // since it crosses into the derivation process.
    const kind = iq.flag === "any" ? undefined : (FLAG_KINDS as readonly string[]).includes(iq.flag) ? (iq.flag as FlagKind) : null;
    if (kind === null) throw new InputError(`Unknown flag "${iq.flag.slice(0, 40)}": any, ${FLAG_KINDS.join(", ")}.`, { flag: "Unknown flag." });
    const flagged = new Set(flaggedInstanceIds(db, actor, projectId, kind));
    const keep = iq.keep;
    iq = { ...iq, keep: (id) => flagged.has(id) && (!keep || keep(id)) };
  }
  const filtered = filterGoldItems(result.items, iq, { answeredBy, reviewed });
  const ordered = iq.order === "agreement" ? byDisagreement(filtered, iq.hold) : filtered.map((item) => ({ item, pairwise: undefined as number | null | undefined }));
  const kept = ordered.map((o) => o.item);
  const size = iq.pageSize ?? INSTANCE_PAGE_SIZE;
  let wanted = iq.page;
  if ((wanted === undefined || wanted === null || wanted === "") && iq.instance) {
    const at = kept.findIndex((i) => i.instanceId === iq.instance);
    if (at >= 0) wanted = Math.floor(at / pageOf(kept, 1, size).pageSize) + 1;
  }
  const itemPage = pageOf(ordered, wanted, size);
  const ids = itemPage.rows.map((o) => o.item.instanceId);
  const texts = loadTexts(db, projectId, ids);
  // The answers as typed, from the derivation's own: without those of participants left out of the gold, as the gold lines.
  const onPage = new Set(ids);
  const typed = new Map<string, TypedAnswer[]>();
  for (const r of inputs.typed) {
    if (!onPage.has(r.instanceId)) continue;
    let list = typed.get(r.instanceId);
    if (!list) typed.set(r.instanceId, (list = []));
    list.push({ annotator: r.annotator, kind: r.kind, substitutes: r.substitutes, multiword: r.multiword });
  }
  const decisions = new Map<string, ReviewInstance["adjudications"]>();
  const refs = [...texts.values()].map((t) => t.ref);
  for (const part of chunks(refs)) {
    for (const a of loadRecords(db, projectId, { instanceRefs: part })) {
      let list = decisions.get(a.instanceId);
      if (!list) decisions.set(a.instanceId, (list = []));
      list.push({ ...a, stale: a.undoneAt === null && inputs.staleAdjudications.has(a.id) });
    }
  }
  const instancePage: Paged<ReviewInstance> = {
    ...itemPage,
    rows: itemPage.rows.map(({ item, pairwise }) => {
      const t = texts.get(item.instanceId) ?? { before: "", head: "", after: "", ref: 0, reviewedAt: null, reviewedBy: null };
      return {
        item,
        before: t.before,
        head: t.head,
        after: t.after,
        typed: typed.get(item.instanceId) ?? [],
        pairwise: pairwise === undefined ? itemPairwise(item) : pairwise,
        adjudications: decisions.get(item.instanceId) ?? [],
        reviewed: t.reviewedAt ? { by: t.reviewedBy, at: t.reviewedAt } : null,
      };
    }),
  };
  const gold = formatGold(result.items);
  const mwgold = formatMwGold(result.items);
  return {
    project: inputs.project,
    summary: result.summary,
    problems: result.problems.slice(0, LISTED_PROBLEMS),
    problemCount: result.problems.length,
    lemmas,
    // A list to choose from only while it is short: 10,000 options were most of the page's HTML and its render.
    lexelts: lexeltItems.length <= LEXELT_CHOICES ? lexeltItems : [],
    lexeltCount: lexeltItems.length,
    files: { goldLines: countLines(gold), mwLines: countLines(mwgold) },
    openProposals: openProposals(review),
    annotators: [...annotatorNames].sort(),
    reviewedCount: reviewed.size,
    adjudicationCount: inputs.adjudications.length,
    afterKnownAnswers: inputs.afterKnownAnswers.length,
    lemmaPage,
    instancePage,
  };
}

/** The open rows of the review whose proposal changes the form, per PoS it was typed under, as proposals to apply. */
function openProposals(review: readonly LemmaReviewEntry[]): AppliedProposal[] {
  const out: AppliedProposal[] = [];
  for (const r of review) {
    // A choice between two readings is no proposal the "with proposals applied" download writes.
    if (r.decision !== null || !r.changed || r.choice) continue;
    const perPos = r.proposals ?? r.pos.map((pos) => ({ pos, proposed: r.proposed, count: r.pos.length === 1 ? r.count : 0 }));
    // Without per-PoS counts (one proposal for every PoS) the whole count goes to the first PoS.
    if (!r.proposals && perPos.length > 1) perPos[0].count = r.count;
    for (const p of perPos) if (p.proposed !== r.form && p.count > 0) out.push({ form: r.form, lemma: p.proposed, pos: p.pos, count: p.count });
  }
  return out.sort((a, b) => b.count - a.count || (a.form < b.form ? -1 : a.form > b.form ? 1 : 0));
}

/** Lines holding an entry (the files open with a blank line). */
function countLines(file: string): number {
  let n = 0;
  for (const line of file.split("\n")) if (line !== "") n++;
  return n;
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
  const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(pageSize) || 1));
  const pages = Math.max(1, Math.ceil(total / size));
  const p = Math.min(pageNumber(page), pages);
  const start = (p - 1) * size;
  const rows = db
    .select({ kind: goldReviewLog.kind, target: goldReviewLog.target, value: goldReviewLog.value, by: users.name, at: goldReviewLog.at })
    .from(goldReviewLog)
    .leftJoin(users, eq(users.id, goldReviewLog.userId))
    .where(eq(goldReviewLog.projectId, projectId))
    .orderBy(desc(goldReviewLog.id))
    .limit(size)
    .offset(start)
    .all();
  return { rows: rows.map(describeReviewLog), total, page: p, pages, pageSize: size, start };
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

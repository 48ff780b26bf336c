/**
 * What the Gold page reads (issue #5): the derived gold and the lemma review from
 * one load of the project's inputs, filtered and cut into pages, plus the
 * sentence and the typed answers for the instances of one page only, so that a
 * project with thousands of forms and instances renders a page's worth of rows.
 * Coordinators of the project only; decisions are recorded by lib/server/gold.ts.
 */
import "server-only";
import { csvCell } from "../lexsub/formats/spreadsheet";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { instances, responses, users } from "../../db/schema";
import { type AppliedProposal, type GoldItem, type GoldProblem, type GoldSummary, formatGold, formatMwGold } from "../lexsub/gold";
import { buildLemmaReview, lemmaTable, normaliseForm } from "../lexsub/normalize";
import { type AnswerKind } from "../lexsub/types";
import { type Actor, type ProjectRow, requireProject } from "./actor";
import { type LemmaReviewEntry, type ReviewLogEntry, deriveProjectGold, goldInputs, goldReviewHistory, proposeLemma } from "./gold";

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

export const LEMMA_PAGE_SIZE = 100;
export const INSTANCE_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 500;

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

export interface InstanceQuery {
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
}

/** The gold items the query keeps, in corpus order. Every condition given must hold. */
export function filterGoldItems(items: readonly GoldItem[], q: InstanceQuery): GoldItem[] {
  return items.filter(
    (i) =>
      (!q.lexelt || i.originalLexelt === q.lexelt) &&
      (!q.noMode || i.mode === null) &&
      (!q.notInT || !i.inT) &&
      (!q.excluded || i.excluded !== null) &&
      (!q.multiword || i.mwLine !== null),
  );
}

export interface LemmaCounts {
  /** Distinct typed forms. */
  forms: number;
  /** Forms the lemmatiser would change. */
  changed: number;
  /** Forms without a decision. */
  open: number;
  /** Changed forms without a decision: what the coordinator still has to look at. */
  openChanged: number;
}

export interface GoldOverview {
  project: ProjectRow;
  summary: GoldSummary;
  problems: GoldProblem[];
  lemmas: LemmaCounts;
  /** The lexelt items as loaded, in corpus order. */
  lexelts: string[];
  /** Lines in the gold and mwgold files as they download now. */
  files: { goldLines: number; mwLines: number };
  /** The unreviewed proposals the download applies (most used first). */
  applied: AppliedProposal[];
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
  const table = lemmaTable(inputs.lemmaRows);
  const result = deriveProjectGold(inputs);
  // lemmaReview's rows, from the same inputs.
  const byForm = new Map(inputs.lemmaRows.map((r) => [normaliseForm(r.form), r]));
  const review: LemmaReviewEntry[] = buildLemmaReview(inputs.responses, undefined, table, { propose: proposeLemma }).map((row) => {
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
  for (const i of inputs.instances) if (!seen.has(i.lexelt)) seen.add(i.lexelt), lexeltItems.push(i.lexelt);

  const lq = q.lemmas ?? {};
  const lemmaPage = pageOf(filterLemmaReview(review, lq), lq.page, lq.pageSize ?? LEMMA_PAGE_SIZE);
  const iq = q.instances ?? {};
  const kept = filterGoldItems(result.items, iq);
  const size = iq.pageSize ?? INSTANCE_PAGE_SIZE;
  let wanted = iq.page;
  if ((wanted === undefined || wanted === null || wanted === "") && iq.instance) {
    const at = kept.findIndex((i) => i.instanceId === iq.instance);
    if (at >= 0) wanted = Math.floor(at / pageOf(kept, 1, size).pageSize) + 1;
  }
  const itemPage = pageOf(kept, wanted, size);
  const ids = itemPage.rows.map((i) => i.instanceId);
  const texts = loadTexts(db, projectId, ids);
  const typed = loadTyped(db, projectId, ids);
  const instancePage: Paged<ReviewInstance> = {
    ...itemPage,
    rows: itemPage.rows.map((item) => {
      const t = texts.get(item.instanceId) ?? { before: "", head: "", after: "" };
      return { item, ...t, typed: typed.get(item.instanceId) ?? [] };
    }),
  };
  const gold = formatGold(result.items);
  const mwgold = formatMwGold(result.items);
  return {
    project: inputs.project,
    summary: result.summary,
    problems: result.problems,
    lemmas,
    lexelts: lexeltItems,
    files: { goldLines: countLines(gold), mwLines: countLines(mwgold) },
    applied: result.applied,
    lemmaPage,
    instancePage,
  };
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
  const out = new Map<string, { before: string; head: string; after: string }>();
  for (const part of chunks(ids)) {
    const rows = db
      .select({ instanceId: instances.instanceId, before: instances.before, head: instances.head, after: instances.after })
      .from(instances)
      .where(and(eq(instances.projectId, projectId), inArray(instances.instanceId, part)))
      .all();
    for (const r of rows) out.set(r.instanceId, { before: r.before, head: r.head, after: r.after });
  }
  return out;
}

function loadTyped(db: Db, projectId: number, ids: readonly string[]) {
  const out = new Map<string, TypedAnswer[]>();
  for (const part of chunks(ids)) {
    const rows = db
      .select({
        instanceId: instances.instanceId,
        annotator: users.name,
        kind: responses.kind,
        substitutes: responses.substitutes,
        multiword: responses.multiword,
      })
      .from(responses)
      .innerJoin(instances, eq(instances.id, responses.instanceRef))
      .innerJoin(users, eq(users.id, responses.userId))
      .where(and(eq(responses.projectId, projectId), inArray(instances.instanceId, part)))
      .orderBy(asc(users.name))
      .all();
    for (const r of rows) {
      let list = out.get(r.instanceId);
      if (!list) out.set(r.instanceId, (list = []));
      list.push({ annotator: r.annotator, kind: r.kind, substitutes: JSON.parse(r.substitutes) as string[], multiword: r.multiword || null });
    }
  }
  return out;
}

/**
 * The instance text for some instances of the project: before, head and after as
 * loaded, by instance id (ids not in the project are left out).
 */
export function instanceTexts(db: Db, actor: Actor, projectId: number, instanceIds: readonly string[]): Map<string, { before: string; head: string; after: string }> {
  requireProject(db, actor, projectId, { coordinator: true });
  return loadTexts(db, projectId, instanceIds);
}

/**
 * The review log as CSV, oldest first: when (ISO, UTC), who, what kind, the
 * target (form or instance id), the decision (lemma decisions) and the value
 * (the lemma, the exclusion reason or the PoS; empty when reverted).
 */
export function goldReviewCsv(db: Db, actor: Actor, projectId: number): string {
  const log: ReviewLogEntry[] = goldReviewHistory(db, actor, projectId, Number.MAX_SAFE_INTEGER).reverse();
  const lines = [["at", "by", "kind", "target", "decision", "value"].join(",")];
  for (const e of log) {
    let decision = "";
    let value = e.value ?? "";
    if (e.kind === "lemma") {
      if (e.value === null) decision = "reset";
      else {
        try {
          const v = JSON.parse(e.value) as { lemma?: string; decision?: string };
          decision = v.decision ?? "";
          value = v.lemma ?? "";
        } catch {
          // Not written by decideLemma: kept verbatim.
        }
      }
    } else if (e.value === null) decision = e.kind === "exclusion" ? "put back" : "undone";
    else decision = e.kind === "exclusion" ? "excluded" : "corrected";
    lines.push([e.at.toISOString(), e.by ?? "(command line)", e.kind, e.target, decision, value].map(csvCell).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

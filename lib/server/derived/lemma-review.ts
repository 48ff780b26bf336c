/**
 * The lemma review read from the kept forms (#39): each form typed in the project, kept with its
 * counts, proposals and whether the lemmatiser changes it (lemma_forms, maintained as answers
 * change), beside the coordinator's decisions (lemma_overrides). The Gold page reads its counts
 * and one page of rows here, with SQLite doing the finding and counting: building the whole
 * review on every load (every form parsed and ordered, 16,000 forms at 2,000 instances) held a
 * serving process's event loop for a quarter of a second, and every save waiting on that process
 * with it.
 *
 * The rows are lib/lexsub/normalize.ts lemmaReviewRow's, in lemmaReviewOrder: changed forms first,
 * then by count, then by the language's collation. SQLite orders by the first two (the index
 * lemma_forms_order); only the forms that share a page's (changed, count) groups are ordered by
 * the collator here. test/fuzz/derived.test.ts checks every read against the whole review.
 *
 * A decision is stored under the normalised form (lib/server/gold/gold.ts writes it so), which is
 * how it is joined to its form here.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { lemmaForms, lemmaOverrides, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type AppliedProposal, proposalOrder, proposalsOfRow } from "../../lexsub/gold";
import { type LemmaDecision, type LemmaReviewRow, cmp, lemmaReviewOrder, lemmaReviewRow, lemmaTable, normaliseForm } from "../../lexsub/normalize";
import { all, get, prepared } from "../kernel/statements";

const LF = named(lemmaForms, "lf");
const LO = named(lemmaOverrides, "lo");
const U = named(users, "u");

/** A row of the lemma review with who decided it. */
export interface LemmaReviewEntry extends LemmaReviewRow {
  decidedBy: string | null;
  decidedAt: Date | null;
}

/** Which forms of the review a page shows. */
export interface LemmaReviewFilter {
  /** Forms containing this text (normalised as forms are: trimmed, single spaces, lower case). */
  contains?: string;
  /** Only forms not reviewed yet. */
  open?: boolean;
  /** Only forms the lemmatiser would change. */
  changed?: boolean;
}

/** How many forms the review has, how many the lemmatiser changes, and how many of each are open. */
export interface LemmaReviewCounts {
  forms: number;
  changed: number;
  open: number;
  openChanged: number;
}

interface FormRow {
  form: string;
  byPos: string;
  proposals: string;
  choices: string;
  spacing: string;
  lemma: string | null;
  decision: LemmaDecision | null;
  decidedBy: string | null;
  decidedAt: number | null;
}

const ROW_COLUMNS = `${LF.form} as form, ${LF.byPos} as byPos, ${LF.proposals} as proposals, ${LF.choices} as choices, ${LF.spacing} as spacing,
  ${LO.lemma} as lemma, ${LO.decision} as decision, ${U.name} as decidedBy, ${LO.decidedAt} as decidedAt`;
const ROW_FROM = `${LF.$} left join ${LO.$} on ${LO.projectId} = ${LF.projectId} and ${LO.form} = ${LF.form} left join ${U.$} on ${U.id} = ${LO.decidedBy}`;

/** A kept form and its decision as the review shows it. */
function entryOf(r: FormRow, language: string): LemmaReviewEntry {
  const table = r.decision === null || r.lemma === null ? undefined : lemmaTable([{ form: r.form, lemma: r.lemma, decision: r.decision }], language);
  const row = lemmaReviewRow(r.form, Object.entries(JSON.parse(r.byPos) as Record<string, number>), table, { unreviewed: "keep", language }, {
    proposals: new Map(Object.entries(JSON.parse(r.proposals) as Record<string, string>)),
    choices: new Map(Object.entries(JSON.parse(r.choices) as Record<string, string | null>)),
    spacing: Object.keys(JSON.parse(r.spacing) as Record<string, number>),
  });
  return { ...row, decidedBy: table ? r.decidedBy : null, decidedAt: table && r.decidedAt !== null ? new Date(r.decidedAt) : null };
}

/** The whole review, in its order (a download, the CLI's decisions over every form, the tests' oracle). */
export function lemmaReviewOf(db: Db, projectId: number, language: string): LemmaReviewEntry[] {
  const rows = all<FormRow>(db, `select ${ROW_COLUMNS} from ${ROW_FROM} where ${LF.projectId} = ?`, projectId);
  return rows.map((r) => entryOf(r, language)).sort(lemmaReviewOrder(language));
}

/** One form's row of the review (the form normalised as the review's are), or null when nobody typed it. */
export function lemmaReviewEntry(db: Db, projectId: number, language: string, form: string): LemmaReviewEntry | null {
  const r = get<FormRow>(db, `select ${ROW_COLUMNS} from ${ROW_FROM} where ${LF.projectId} = ? and ${LF.form} = ?`, projectId, form);
  return r ? entryOf(r, language) : null;
}

/** The review's counts: the forms and changed forms by the index, the decided ones among them by the decisions. */
export function lemmaReviewCounts(db: Db, projectId: number): LemmaReviewCounts {
  const kept = get<{ forms: number; changed: number | null }>(db, `select count(*) as forms, sum(${LF.changed}) as changed from ${LF.$} where ${LF.projectId} = ?`, projectId);
  const decided = get<{ forms: number; changed: number | null }>(
    db,
    `select count(*) as forms, sum(${LF.changed}) as changed from ${LO.$} join ${LF.$} on ${LF.projectId} = ${LO.projectId} and ${LF.form} = ${LO.form} where ${LO.projectId} = ?`,
    projectId,
  );
  const forms = kept?.forms ?? 0;
  const changed = kept?.changed ?? 0;
  return { forms, changed, open: forms - (decided?.forms ?? 0), openChanged: changed - (decided?.changed ?? 0) };
}

/** The WHERE clause (after the project) and its parameters for a filter. */
function whereOf(filter: LemmaReviewFilter): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  // Normalised as the forms are (test/support/full-derivation.ts filterLemmaReview is the same filter over the whole review).
  const needle = normaliseForm(filter.contains ?? "");
  if (needle) {
    parts.push(`instr(${LF.form}, ?) > 0`);
    params.push(needle);
  }
  if (filter.open) parts.push(`${LO.form} is null`);
  if (filter.changed) parts.push(`${LF.changed} = 1`);
  return { sql: parts.map((p) => ` and ${p}`).join(""), params };
}

/**
 * A slice of the review the filter keeps, and how many it keeps: `at` is told how many and says
 * which rows (a page number is clamped to the pages there are). SQLite counts the forms per
 * (changed, count) group in the review's order; the groups the slice falls in are read whole,
 * ordered by the collator and cut.
 */
export function lemmaReviewSlice(
  db: Db,
  projectId: number,
  language: string,
  filter: LemmaReviewFilter,
  at: (total: number) => { start: number; size: number },
): { rows: LemmaReviewEntry[]; total: number } {
  const where = whereOf(filter);
  const from = `${LF.$} left join ${LO.$} on ${LO.projectId} = ${LF.projectId} and ${LO.form} = ${LF.form}`;
  const groups = all<{ changed: number; count: number; n: number }>(
    db,
    `select ${LF.changed} as changed, ${LF.count} as count, count(*) as n from ${from} where ${LF.projectId} = ?${where.sql}
       group by ${LF.changed}, ${LF.count} order by ${LF.changed} desc, ${LF.count} desc`,
    projectId,
    ...where.params,
  );
  const total = groups.reduce((n, g) => n + g.n, 0);
  const { start, size } = at(total);
  const end = Math.min(total, start + size);
  const order = lemmaReviewOrder(language);
  const rows: LemmaReviewEntry[] = [];
  let first = 0;
  for (const g of groups) {
    if (first >= end) break;
    const next = first + g.n;
    if (next > start) {
      const forms = all<{ form: string; count: number; changed: number }>(
        db,
        `select ${LF.form} as form, ${LF.count} as count, ${LF.changed} as changed from ${from} where ${LF.projectId} = ?${where.sql} and ${LF.changed} = ? and ${LF.count} = ?`,
        projectId,
        ...where.params,
        g.changed,
        g.count,
      )
        .map((r) => ({ form: r.form, count: r.count, changed: r.changed === 1 }))
        .sort(order);
      const wanted = forms.slice(Math.max(0, start - first), end - first);
      for (const { form } of wanted) {
        const entry = lemmaReviewEntry(db, projectId, language, form);
        if (entry) rows.push(entry);
      }
    }
    first = next;
  }
  return { rows, total };
}

/** The lemma proposals nobody decided: how many, the answers they rewrite, and the first ones in their order. */
export interface OpenProposals {
  count: number;
  uses: number;
  first: AppliedProposal[];
  /**
   * Spellings with other spacing than their form's (`still ` for "still") of the forms nobody decided:
   * the "with proposals applied" download writes each of them tidied (or as its form's proposal).
   */
  spacing: number;
}

/**
 * The proposals of the forms nobody decided (what the "with proposals applied" download applies): their
 * number and uses summed by SQLite from each form's kept figures, and the first `first` of them in their
 * order (by count, then form, then PoS) read from the forms in order of their largest proposal and form,
 * stopping once no form left can have one among them (forms typed once tie by the thousand: they are
 * read in form order, not all of them). It read every open changed form before: 83–117 ms at 13,000.
 */
export function openProposalsOf(db: Db, projectId: number, language: string, first: number): OpenProposals {
  const open = `${LF.projectId} = ? and ${LF.proposalCount} > 0 and ${LO.form} is null`;
  const totals = get<{ count: number | null; uses: number | null }>(
    db,
    `select sum(${LF.proposalCount}) as count, sum(${LF.proposalUses}) as uses from ${LF.$} indexed by lemma_forms_proposals
       left join ${LO.$} on ${LO.projectId} = ${LF.projectId} and ${LO.form} = ${LF.form} where ${open}`,
    projectId,
  );
  // The best `first` so far, in their order (at most `first` kept: each new one goes in at its place).
  const out: AppliedProposal[] = [];
  if (first > 0) {
    // By each form's largest proposal, then by form: a form read later has none larger, and none as large
    // with a form before this one's (SQLite orders text by code points; cmp by UTF-16 units, so both must agree).
    const rows = prepared(
      db,
      `select ${ROW_COLUMNS}, ${LF.proposalTop} as top from ${LF.$} indexed by lemma_forms_proposals
         left join ${LO.$} on ${LO.projectId} = ${LF.projectId} and ${LO.form} = ${LF.form} left join ${U.$} on ${U.id} = ${LO.decidedBy}
        where ${open} order by ${LF.proposalTop} desc, ${LF.form}`,
    ).iterate(projectId) as IterableIterator<FormRow & { top: number }>;
    for (const r of rows) {
      const last = out.length >= first ? out[first - 1] : null;
      if (last && (last.count > r.top || (last.count === r.top && cmp(last.form, r.form) < 0 && codePointsBefore(last.form, r.form)))) break;
      for (const p of proposalsOfRow(entryOf(r, language))) {
        let at = out.length;
        while (at > 0 && proposalOrder(p, out[at - 1]) < 0) at--;
        if (at < first) out.splice(at, 0, p);
        if (out.length > first) out.pop();
      }
    }
  }
  const spacing = get<{ n: number | null }>(
    db,
    `select sum(${LF.spacingCount}) as n from ${LF.$} indexed by lemma_forms_spacing
       left join ${LO.$} on ${LO.projectId} = ${LF.projectId} and ${LO.form} = ${LF.form} where ${LF.projectId} = ? and ${LF.spacingCount} > 0 and ${LO.form} is null`,
    projectId,
  );
  return { count: totals?.count ?? 0, uses: totals?.uses ?? 0, first: out, spacing: spacing?.n ?? 0 };
}

/** `a` before `b` in code-point order (SQLite's order of text). */
function codePointsBefore(a: string, b: string): boolean {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")) < 0;
}

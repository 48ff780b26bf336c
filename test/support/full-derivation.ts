/**
 * The oracles of the figures kept as answers change (#39): what a derivation of the whole project
 * from every response gives, computed the way lib/server/gold/gold.ts derives it, for tests to
 * compare the kept figures with.
 */
import type { Db } from "../../db/client";
import { buildLemmaReview, lemmaTable, normaliseForm } from "../../lib/lexsub/normalize";
import { goldInputs, lemmaProposer } from "../../lib/server/gold/gold";
import type { Actor } from "../../lib/server/kernel/actor";

/** The lemma review derived from every response (the rows, order and decisions lemmaReview gives from the kept counts). */
export function fullLemmaReview(db: Db, actor: Actor, projectId: number) {
  const inputs = goldInputs(db, actor, projectId);
  const language = inputs.project.language;
  const byForm = new Map(inputs.lemmaRows.map((r) => [normaliseForm(r.form, language), r]));
  return buildLemmaReview(inputs.responses, undefined, lemmaTable(inputs.lemmaRows, language), { propose: lemmaProposer(language), unreviewed: "keep", language }).map((row) => {
    const d = byForm.get(row.form);
    return { ...row, decidedBy: d?.decidedBy ?? null, decidedAt: d?.decidedAt ?? null };
  });
}

/**
 * The lemma review's filter over the whole review, in its order: what the Gold page's SQL filter
 * (lib/server/derived/lemma-review.ts) is compared with. `contains` is normalised as forms are.
 */
export function filterLemmaReview<T extends { form: string; decision: unknown; changed: boolean }>(
  rows: readonly T[],
  q: { contains?: string; open?: boolean; changed?: boolean },
): T[] {
  const needle = normaliseForm(q.contains ?? "");
  return rows.filter((r) => (!needle || r.form.includes(needle)) && (!q.open || r.decision === null) && (!q.changed || r.changed));
}

/** The tables of a project's derived figures. */
const TABLES = ["gold_items", "gold_forms", "lemma_forms", "agreement_sums", "annotator_sums", "derived_counts", "lexelt_answer_counts", "annotator_lexelt_counts", "annotator_totals"];

/** Every derived row of the project, JSON columns parsed (key order is not a difference), in a stable order. */
export function derivedTables(db: Db, projectId: number): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) {
    const rows = db.$client.prepare(`select * from ${t} where project_id = ?`).all(projectId) as Record<string, unknown>[];
    out[t] = rows
      .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" && /^[[{]/.test(v) ? JSON.parse(v) : v])))
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return out;
}

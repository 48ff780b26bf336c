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

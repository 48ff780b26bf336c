/**
 * Per-response adjudication (issue #15), pure: the coordinator's active decisions
 * applied to the annotators' responses before the gold is derived. The stored
 * responses are never changed; this returns adjusted copies.
 *
 * - strike: the substitute (as typed, compared after tidying) is left out of the
 *   annotator's response;
 * - correct: the substitute is replaced by the corrected one (a repeat of another
 *   substitute of the same response, case ignored, counts once);
 * - strike-response: the whole response is left out (its substitutes, NAME/NIL
 *   and multiword);
 * - multiword: the response's multiword phrase (`substitute`, as typed) is
 *   replaced by `value`, or, when `value` is null, the target is taken as not part
 *   of a multiword (the response keeps its substitutes). This is what the mwgold
 *   and the multiword item status are derived from.
 * A substitute decision whose substitute is no longer in the response (the
 * annotator changed it since), or a multiword decision whose phrase is no longer
 * the response's, is not applied and reported as stale.
 */
import { tidy } from "./substitute-rules";
import type { AnnotatorResponse } from "./types";

export type AdjudicationAction = "strike" | "correct" | "strike-response" | "multiword";

export interface AdjudicationDecision {
  id: number;
  annotator: string;
  instanceId: string;
  action: AdjudicationAction;
  /** The substitute as typed (null for strike-response); for multiword, the phrase as typed. */
  substitute: string | null;
  /** The corrected substitute (correct), the corrected phrase (multiword; null: not a multiword). */
  value: string | null;
}

export interface AdjudicatedResponses {
  /** The responses with the decisions applied, in the order given (struck responses left out). */
  responses: AnnotatorResponse[];
  /** Ids of the decisions that changed a response. */
  applied: Set<number>;
  /** Ids of the substitute decisions whose substitute is no longer in the response. */
  stale: Set<number>;
}

const key = (instanceId: string, annotator: string) => `${instanceId}\t${annotator}`;

/** Apply the active decisions to the responses. Responses without a decision are returned as they are (same objects). */
export function applyAdjudications(responses: readonly AnnotatorResponse[], decisions: readonly AdjudicationDecision[]): AdjudicatedResponses {
  const applied = new Set<number>();
  const stale = new Set<number>();
  if (decisions.length === 0) return { responses: responses.slice(), applied, stale };
  const byResponse = new Map<string, AdjudicationDecision[]>();
  for (const d of decisions) {
    const k = key(d.instanceId, d.annotator);
    let list = byResponse.get(k);
    if (!list) byResponse.set(k, (list = []));
    list.push(d);
  }
  const out: AnnotatorResponse[] = [];
  const seen = new Set<string>();
  for (const r of responses) {
    const k = key(r.instanceId, r.annotator);
    const ds = byResponse.get(k);
    if (!ds) {
      out.push(r);
      continue;
    }
    seen.add(k);
    const whole = ds.find((d) => d.action === "strike-response");
    if (whole) {
      applied.add(whole.id);
      continue;
    }
    out.push(adjudicateResponse(r, ds, applied, stale));
  }
  for (const [k, ds] of byResponse) if (!seen.has(k)) for (const d of ds) stale.add(d.id);
  return { responses: out, applied, stale };
}

/** One response with its substitute decisions applied (strike-response handled by the caller). */
function adjudicateResponse(r: AnnotatorResponse, ds: readonly AdjudicationDecision[], applied: Set<number> = new Set(), stale: Set<number> = new Set()): AnnotatorResponse {
  let subs: (string | null)[] = r.substitutes.slice();
  let multiword = r.multiword;
  for (const d of ds) {
    if (d.action === "multiword") {
      // At most one active multiword decision per response (lib/server/gold/adjudication.ts refuses a second).
      if (r.multiword === null || d.substitute === null || tidy(r.multiword) !== tidy(d.substitute)) stale.add(d.id);
      else {
        applied.add(d.id);
        multiword = d.value;
      }
      continue;
    }
    if (d.action === "strike-response" || d.substitute === null) continue;
    const at = subs.findIndex((s, k) => s !== null && tidy(r.substitutes[k]) === tidy(d.substitute!));
    if (at < 0) {
      stale.add(d.id);
      continue;
    }
    applied.add(d.id);
    subs[at] = d.action === "correct" && d.value !== null ? d.value : null;
  }
  const kept: string[] = [];
  const lower = new Set<string>();
  for (const s of subs) {
    if (s === null) continue;
    const l = tidy(s).toLowerCase();
    if (lower.has(l)) continue;
    lower.add(l);
    kept.push(s);
  }
  subs = kept;
  return { ...r, substitutes: kept, multiword };
}

/**
 * The review log's lines in words (lib/server/gold/gold-review.ts shows and exports them):
 * each gold_review_log row's kind and value — a lemma decision, an exclusion, a PoS, an
 * adjudication or its undo, a review mark, a return, a crowd participant's review or bonus,
 * and rejected participants left out of the gold or put back (lib/server/crowd) — as the
 * decision, value, annotator, substitute and reason columns.
 */
import "server-only";
import type { ReviewLogEntry } from "./gold";

/** One decision of the review log as the page and the exports show it. */
export interface ReviewLogRow {
  at: Date;
  /** Who decided; null = the command line. */
  by: string | null;
  kind: ReviewLogEntry["kind"];
  /** The form (lemma decisions) or the instance id. */
  target: string;
  /** What was decided, in words: overridden, excluded, struck, corrected, undone, reviewed… */
  decision: string;
  /** The lemma, the exclusion reason, the PoS, or the corrected substitute. */
  value: string;
  /** Adjudication: whose response. */
  annotator: string;
  /** Adjudication: the substitute as typed. */
  substitute: string;
  /** Adjudication: the reason given. */
  reason: string;
}

const ACTION_WORDS: Record<string, string> = { strike: "struck", correct: "corrected", "strike-response": "response struck", multiword: "multiword decided" };

/** A log entry in words (the value column of adjudications is JSON written by lib/server/gold/adjudication.ts). */
export function describeReviewLog(e: ReviewLogEntry): ReviewLogRow {
  const row: ReviewLogRow = { at: e.at, by: e.by, kind: e.kind, target: e.target, decision: "", value: e.value ?? "", annotator: "", substitute: "", reason: "" };
  const json = (): Record<string, string | null | undefined> | null => {
    try {
      return e.value === null ? null : (JSON.parse(e.value) as Record<string, string | null>);
    } catch {
      return null;
    }
  };
  switch (e.kind) {
    case "lemma": {
      if (e.value === null) row.decision = "reset";
      else {
        const v = json();
        // Not written by decideLemma: kept verbatim.
        if (v) Object.assign(row, { decision: v.decision ?? "", value: v.lemma ?? "" });
      }
      break;
    }
    case "exclusion":
      row.decision = e.value === null ? "put back" : "excluded";
      break;
    case "pos":
      row.decision = e.value === null ? "undone" : "corrected";
      break;
    case "reviewed":
      row.decision = e.value === null ? "un-marked reviewed" : "reviewed";
      row.value = "";
      break;
    case "return": {
      const v = json() ?? {};
      row.decision = v.withdrawn ? "return withdrawn" : "returned with a comment";
      row.value = "";
      row.annotator = v.annotator ?? "";
      row.reason = v.comment ?? "";
      break;
    }
    case "participant": {
      // lib/server/crowd/participants.ts: a review ({ review, reason }) or a bonus ({ bonusCents }).
      const v = (json() ?? {}) as { review?: string; reason?: string; bonusCents?: number | null };
      if (v.review !== undefined) {
        row.decision = v.review === "pending" ? "review reset" : (v.review ?? "");
        row.reason = v.reason ?? "";
        row.value = "";
      } else {
        row.decision = "bonus";
        row.value = typeof v.bonusCents === "number" ? (v.bonusCents / 100).toFixed(2) : "none";
      }
      break;
    }
    case "participants": {
      // lib/server/crowd/participants.ts: rejected participants' answers left out of the gold, or put back.
      const v = (json() ?? {}) as { action?: string; participants?: string[] };
      row.decision = v.action === "put back" ? "answers put back in the gold" : "answers left out of the gold";
      row.value = (v.participants ?? []).join(" ");
      break;
    }
    case "model": {
      // lib/server/models/decisions.ts: a model counted as an annotator, or taken out again ({ counted, reason }).
      const v = (json() ?? {}) as { counted?: boolean; reason?: string };
      row.decision = v.counted ? "counted as an annotator" : "no longer counted as an annotator";
      row.reason = v.reason ?? "";
      row.value = "";
      break;
    }
    case "strike":
    case "correct":
    case "strike-response":
    case "multiword":
    case "undo": {
      const v = json() ?? {};
      const action = e.kind === "undo" ? (v.action ?? "") : e.kind;
      // A multiword decision: the phrase as typed in `substitute`, the corrected phrase in `value` (none: not a multiword).
      const words = action === "multiword" ? (v.value ? "multiword corrected" : "not a multiword") : (ACTION_WORDS[action] ?? action);
      row.decision = e.kind === "undo" ? `undone (${words})` : words;
      row.value = action === "correct" || action === "multiword" ? (v.value ?? "") : "";
      row.annotator = v.annotator ?? "";
      row.substitute = v.substitute ?? "";
      row.reason = v.reason ?? "";
      break;
    }
  }
  return row;
}

/**
 * The payment downloads of a crowd study (issue #32), coordinators of the project only:
 *
 * - prolific-approve: the approved participants' PROLIFIC_PIDs, one per line (Prolific's
 *   bulk approve box), never one screened out by the training (Prolific pays those through the
 *   screen-out code);
 * - prolific-bonus: `<PROLIFIC_PID>,<amount>` lines, the amount in pounds with two decimals
 *   (Prolific's bulk bonus box), for participants with a bonus who are neither rejected nor
 *   screened out;
 * - mturk: Mechanical Turk's batch-results upload, one row per reviewed assignment: HITId,
 *   AssignmentId, WorkerId, Approve ("x") and Reject (the reason, shown to the worker as
 *   feedback); pending assignments are left out (they stay to be reviewed on Mechanical Turk);
 * - tsv: the whole participants table.
 *
 * Every CSV and TSV cell is spreadsheet-safe (lib/lexsub/formats/spreadsheet.ts). The ids
 * themselves were checked for shape when the participant joined; a cell that would still
 * be read as a formula is neutralised like any other.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { csvCell, neutraliseCell } from "../../lexsub/formats/spreadsheet";
import type { Actor } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { type ParticipantRow, studyParticipants } from "./participants";

const PAYMENT_FILES = ["prolific-approve", "prolific-bonus", "mturk", "tsv"] as const;

export interface Download {
  fileName: string;
  contentType: string;
  text: string;
}

/** A TSV cell: one line, no tabs, safe in a spreadsheet. */
function tsvCell(s: string): string {
  return neutraliseCell(s.replace(/[\t\r\n]+/g, " "));
}

/** Hundredths as an amount with two decimals: 150 → "1.50". */
export function amount(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

const TSV_COLUMNS = [
  "platform_id",
  "session_id",
  "state",
  "joined",
  "finished",
  "time_on_task_s",
  "answered",
  "batch",
  "checks_seen",
  "checks_passed",
  "agreement",
  "median_s_per_item",
  "flags",
  "review",
  "reason",
  "bonus",
  "left_out_of_gold",
] as const;

function tsvRow(r: ParticipantRow): string {
  return [
    r.platformId,
    r.sessionId ?? "",
    r.state,
    r.joinedAt.toISOString(),
    r.finishedAt?.toISOString() ?? "",
    (r.activeMs / 1000).toFixed(1),
    String(r.answered),
    String(r.batch),
    String(r.checksSeen),
    String(r.checksPassed),
    r.agreement === null ? "" : r.agreement.toFixed(4),
    r.medianMs === null ? "" : (r.medianMs / 1000).toFixed(1),
    r.flags.join("; "),
    r.review,
    r.reviewReason,
    r.bonusCents === null ? "" : amount(r.bonusCents),
    r.excluded ? "yes" : "",
  ]
    .map(tsvCell)
    .join("\t");
}

/** One of the study's payment files (PAYMENT_FILES), built now from the review. */
export function paymentFile(db: Db, actor: Actor, projectId: number, studyId: unknown, file: unknown): Download {
  const { project, study, rows } = studyParticipants(db, actor, projectId, studyId);
  const base = `${project.name}-${study.name || `study-${study.id}`}`.replace(/[^A-Za-z0-9._-]+/g, "-");
  const lines = (xs: string[]) => xs.map((x) => `${x}\n`).join("");
  switch (file) {
    case "prolific-approve":
      return { fileName: `${base}-approve.txt`, contentType: "text/plain; charset=utf-8", text: lines(rows.filter((r) => r.review === "approved" && r.canReview).map((r) => tsvCell(r.platformId))) };
    case "prolific-bonus":
      return {
        fileName: `${base}-bonus.csv`,
        contentType: "text/csv; charset=utf-8",
        text: lines(rows.filter((r) => r.review !== "rejected" && r.canBonus && r.bonusCents !== null && r.bonusCents > 0).map((r) => `${csvCell(r.platformId)},${amount(r.bonusCents!)}`)),
      };
    case "mturk": {
      const out = ["HITId,AssignmentId,WorkerId,Approve,Reject"];
      for (const r of rows) {
        if (r.review === "pending" || !r.sessionId) continue;
        out.push([r.platformStudyId ?? "", r.sessionId, r.platformId, r.review === "approved" ? "x" : "", r.review === "rejected" ? r.reviewReason : ""].map(csvCell).join(","));
      }
      return { fileName: `${base}-mturk-review.csv`, contentType: "text/csv; charset=utf-8", text: lines(out) };
    }
    case "tsv":
      return { fileName: `${base}-participants.tsv`, contentType: "text/tab-separated-values; charset=utf-8", text: lines([TSV_COLUMNS.join("\t"), ...rows.map(tsvRow)]) };
    default:
      throw new InputError(`Choose a file: ${PAYMENT_FILES.join(", ")}.`, { file: "Unknown file." });
  }
}

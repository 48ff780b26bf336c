/** The review log: every decision, newest first. */
import { absoluteTime, relativeTime } from "@/app/_ui/time";
import type { Paged, ReviewLogRow } from "@/lib/server/gold";
import styles from "../gold.module.css";
import { Pager } from "./pager";
import { href } from "./params";

const KIND_WORDS: Record<ReviewLogRow["kind"], string> = {
  lemma: "lemma",
  exclusion: "exclusion",
  pos: "PoS",
  strike: "adjudication",
  correct: "adjudication",
  "strike-response": "adjudication",
  multiword: "adjudication",
  undo: "adjudication",
  reviewed: "review mark",
  return: "return",
  participant: "crowd review",
  model: "model",
  participants: "crowd participants",
};

function describeLog(e: ReviewLogRow): { what: string; detail: string } {
  if (e.kind === "lemma") return { what: e.decision === "reset" ? "lemma reset" : `lemma ${e.decision === "kept" ? "kept as typed" : e.decision}`, detail: e.value };
  if (e.kind === "exclusion") return { what: e.decision, detail: e.value };
  if (e.kind === "pos") return { what: e.decision === "undone" ? "PoS as loaded" : "PoS corrected", detail: e.value };
  if (e.kind === "reviewed") return { what: e.decision, detail: "" };
  if (e.kind === "return") return { what: e.decision, detail: `${e.annotator}: “${e.reason}”` };
  if (e.kind === "model") return { what: e.decision, detail: e.reason ? `${e.target}: ${e.reason}` : e.target };
  if (e.kind === "participant" || e.kind === "participants") return { what: e.decision, detail: e.reason ? `${e.target}: ${e.value ? `${e.value} — ` : ""}${e.reason}` : `${e.target}${e.value ? `: ${e.value}` : ""}` };
  const sub = e.substitute ? `${e.decision.includes("multiword") ? "multiword " : ""}“${e.substitute}”${e.value ? ` → “${e.value}”` : ""}` : "whole response";
  return { what: e.decision, detail: `${e.annotator}: ${sub}${e.reason ? ` — ${e.reason}` : ""}` };
}

export function LogView({ log, now, download, base }: { log: Paged<ReviewLogRow>; now: Date; download: string; base: string }) {
  const hrefFor = (p: number) => href(base, { view: "log", gp: p > 1 ? p : undefined });
  return (
    <section aria-labelledby="log-heading">
      <h2 id="log-heading">Review log</h2>
      <p className="muted small">
        Every decision — lemmas, exclusions, PoS corrections, strikes and corrections of answers, undos, review marks — newest first. Download the whole log as{" "}
        <a href={`${download}?file=log`} download>
          CSV
        </a>{" "}
        or{" "}
        <a href={`${download}?file=logtsv`} download>
          TSV
        </a>
        .
      </p>
      <Pager page={log} hrefFor={hrefFor} what={["decision", "decisions"]} label="Review log pages" />
      {log.total === 0 ? (
        <p className="muted">No decisions yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="log-heading" className={styles.log}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Kind</th>
                <th scope="col">What</th>
                <th scope="col">Form or instance</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {log.rows.map((e, k) => {
                const { what, detail } = describeLog(e);
                return (
                  <tr key={log.start + k}>
                    <td>
                      <time dateTime={e.at.toISOString()} title={absoluteTime(e.at)}>
                        {relativeTime(e.at, now)}
                      </time>
                    </td>
                    <td>{e.by ?? <span className="muted">command line</span>}</td>
                    <td>{KIND_WORDS[e.kind]}</td>
                    <td>{what}</td>
                    <td>
                      <code>{e.target}</code>
                    </td>
                    <td>{detail || <span className="muted">—</span>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {log.pages > 1 && <Pager page={log} hrefFor={hrefFor} what={["decision", "decisions"]} label="Review log pages, bottom" />}
    </section>
  );
}

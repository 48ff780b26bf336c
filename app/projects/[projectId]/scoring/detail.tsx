"use client";
import { useMemo, useState } from "react";
import type { Diagnostic } from "@/lib/lexsub/diagnostics";
import type { GroupRow, ItemsPage, RunDetail } from "@/lib/server/scoring";
import { base, withFigures } from "./client";
import { DownloadLink } from "./download-link";
import { exact, figure, measuresOf, mwNote, pct } from "./format";
import { RepairList, RepairedFigure } from "./repairs";
import { Items } from "./items";
import styles from "./scoring.module.css";

/**
 * One run: figures, the official report, breakdowns, items (paged), diagnostics. score.pl's figures
 * come from the outcomes kept per id (`paged`: one page of items at a time from `itemsUrl`, the
 * breakdown per lexelt from a whole scoring asked for with `onWhole`); other figures from a whole scoring.
 */
export function RunDetailView({
  projectId,
  detail,
  itemsUrl,
  onClose,
  onWhole,
}: {
  projectId: number;
  detail: RunDetail & { paged?: ItemsPage };
  itemsUrl: string;
  onClose: () => void;
  onWhole: () => void;
}) {
  const { run } = detail;
  const url = `${base(projectId)}/runs/${run.id}`;
  const measures = measuresOf(run.type);
  const diagnostics = [...detail.goldDiagnostics, ...detail.systemDiagnostics];
  const repaired = detail.mode === "repaired";
  const [only, setOnly] = useState<string | null>(null);
  // A page of items from the kept outcomes: any id of the run is found by asking for it.
  const itemIds = useMemo(() => (detail.paged ? undefined : new Set(detail.items.map((i) => i.id))), [detail.items, detail.paged]);
  function showItem(id: string) {
    setOnly(id);
    requestAnimationFrame(() => document.getElementById("items-heading")?.scrollIntoView({ behavior: "smooth", block: "start" }));
  }
  return (
    <section className={`panel ${styles.detail}`} aria-labelledby="run-detail-heading" id="run-detail">
      <div className={styles.detailHead}>
        <h2 id="run-detail-heading">
          {run.name} <span className="tag">{run.type}</span> {repaired && <span className="tag">repaired figures</span>}
        </h2>
        <button type="button" className="quiet" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="muted small">
        {run.fileName} scored against {detail.goldName ?? "no gold"}
        {detail.lines.read > 0 && (
          <>
            {" "}
            · {detail.lines.read} line{detail.lines.read === 1 ? "" : "s"} read, {detail.lines.matched} in the format
            {detail.lines.refused > 0 && <>, {detail.lines.refused} skipped</>}
          </>
        )}
        {detail.ignored && (detail.ignored.outsideT ?? 0) + detail.ignored.repeats > 0 && (
          <>
            {" "}
            · ignored: {detail.ignored.outsideT ? `${detail.ignored.outsideT} outside T` : ""}
            {detail.ignored.outsideT && detail.ignored.repeats ? ", " : ""}
            {detail.ignored.repeats ? `${detail.ignored.repeats} repeated id${detail.ignored.repeats === 1 ? "" : "s"}` : ""}
          </>
        )}
      </p>

      {detail.problem ? (
        <div className="notice error" role="alert">
          {detail.problem}
        </div>
      ) : (
        <>
          <dl className={styles.figures}>
            {measures.map((m) => {
              const v = figure(detail.figures, m.key);
              return (
                <div key={m.key}>
                  <dt>{m.label}</dt>
                  <dd title={exact(v)}>
                    {pct(v)}
                    {!repaired && detail.repairs && <RepairedFigure official={v} repaired={figure(detail.repairs.repaired, m.key)} />}
                  </dd>
                </div>
              );
            })}
          </dl>
          {run.type === "mw" && (
            <p className="muted small" data-testid="mw-note">
              {mwNote(figure(detail.figures, "detectionRecall") === null)}
            </p>
          )}

          {detail.repairs && (
            <section className={styles.repairsPanel} aria-labelledby="run-repairs-heading">
              <h3 id="run-repairs-heading">{repaired ? "Where these figures differ from score.pl’s" : "Where the repaired figures differ"}</h3>
              <p className="muted small">
                {repaired ? "score.pl’s own figures: " : "With the documented repairs: "}
                {measures.map((m, i) => (
                  <span key={m.key}>
                    {i > 0 && ", "}
                    {m.short} {pct(figure(repaired ? detail.repairs!.official : detail.repairs!.repaired, m.key))}
                  </span>
                ))}
                . The items each repair changes{!itemIds || itemIds.size > 0 ? " (an id shows its row below)" : ""}:
              </p>
              <RepairList changes={detail.repairs.changes} onItem={showItem} known={itemIds} />
            </section>
          )}

          <h3>{repaired ? "Report with the repairs (lexgold score --repaired)" : "Official report"}</h3>
          <pre className={styles.report} aria-label={repaired ? "Report with the repairs" : "Official report"}>
            {detail.report}
          </pre>
          <div className={styles.actions}>
            <DownloadLink href={withFigures(`${url}/report`, detail.mode)}>
              Download report
            </DownloadLink>
            <DownloadLink href={withFigures(`${url}/report?verbose=1`, detail.mode)}>
              Download report with -v lines
            </DownloadLink>
            <a className="button secondary" href={`${url}/file`} download>
              Download system file
            </a>
          </div>

          {run.type !== "mw" && (
            <>
              <Breakdown title="By part of speech" label="PoS" rows={detail.byPos} type={run.type} />
              {detail.paged ? (
                <p className="small muted">
                  By lexelt: from scoring the run whole, every item at once (slow for a large run).{" "}
                  <button type="button" className="secondary" onClick={onWhole}>
                    Score the run whole
                  </button>
                </p>
              ) : (
                <details className={styles.lexelts}>
                  <summary>
                    By lexelt <span className="muted">({detail.byLexelt.length})</span>
                  </summary>
                  <Breakdown title={null} label="Lexelt" rows={detail.byLexelt} type={run.type} />
                </details>
              )}
            </>
          )}

          <Items key={itemsUrl} detail={detail} url={itemsUrl} only={only} onShowAll={() => setOnly(null)} />
        </>
      )}

      <Diagnostics list={diagnostics} />
    </section>
  );
}

function Breakdown({ title, label, rows, type }: { title: string | null; label: string; rows: GroupRow[]; type: "best" | "oot" }) {
  const mode = type === "best" ? "Mode" : "mode";
  return (
    <>
      {title && <h3>{title}</h3>}
      <div className="table-wrap">
        <table className={styles.compact}>
          <thead>
            <tr>
              <th scope="col">{label}</th>
              <th scope="col" className="num">Total</th>
              <th scope="col" className="num">Attempted</th>
              <th scope="col" className="num">P</th>
              <th scope="col" className="num">R</th>
              <th scope="col" className="num">With mode</th>
              <th scope="col" className="num">{mode} P</th>
              <th scope="col" className="num">{mode} R</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((g) => (
              <tr key={g.group}>
                <th scope="row" className={styles.rowHead}>
                  {g.group || <span className="muted">(none)</span>}
                </th>
                <td className="num">{g.stats.total}</td>
                <td className="num">{g.stats.attempted}</td>
                <td className="num" title={exact(g.scores.precision)}>{pct(g.scores.precision)}</td>
                <td className="num" title={exact(g.scores.recall)}>{pct(g.scores.recall)}</td>
                <td className="num">
                  {g.stats.attemptedWithMode}/{g.stats.totalWithMode}
                </td>
                <td className="num" title={exact(g.scores.modePrecision)}>{pct(g.scores.modePrecision)}</td>
                <td className="num" title={exact(g.scores.modeRecall)}>{pct(g.scores.modeRecall)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Diagnostics with file and line, errors first. */
export function Diagnostics({ list, title = "Diagnostics" }: { list: Diagnostic[]; title?: string }) {
  if (list.length === 0) return null;
  const errors = list.filter((d) => d.severity === "error").length;
  return (
    <details className={styles.diagnostics} open={errors > 0}>
      <summary>
        {title}: {errors > 0 && <span className={styles.miss}>{errors} error{errors === 1 ? "" : "s"}</span>}
        {errors > 0 && list.length > errors && ", "}
        {list.length > errors && (
          <span>
            {list.length - errors} warning{list.length - errors === 1 ? "" : "s"}
          </span>
        )}
      </summary>
      <ul className="plain">
        {[...list]
          .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1))
          .map((d, i) => (
            <li key={i} className={d.severity === "error" ? styles.diagError : styles.diagWarn}>
              <code>
                {d.file}
                {d.line > 0 ? `:${d.line}` : ""}
              </code>{" "}
              <strong>{d.severity}</strong>: {d.message}
            </li>
          ))}
      </ul>
    </details>
  );
}

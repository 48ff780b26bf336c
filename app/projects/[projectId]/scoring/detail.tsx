"use client";
import { useMemo, useState } from "react";
import { perlNumber } from "@/lib/scorers/semeval2007/report";
import type { Diagnostic } from "@/lib/lexsub/diagnostics";
import type { GroupRow, ItemRow, RunDetail } from "@/lib/server/scoring";
import { base, withFigures } from "./client";
import { DownloadLink } from "./download-link";
import { exact, figure, measuresOf, mwNote, pct } from "./format";
import { RepairList, RepairedFigure } from "./repairs";
import styles from "./scoring.module.css";
import { listAnswers } from "@/app/_ui/answer-text";

const PAGE = 50;

/** One run in full: figures, the official report, breakdowns, items (paged), diagnostics. */
export function RunDetailView({ projectId, detail, onClose }: { projectId: number; detail: RunDetail; onClose: () => void }) {
  const { run } = detail;
  const url = `${base(projectId)}/runs/${run.id}`;
  const measures = measuresOf(run.type);
  const diagnostics = [...detail.goldDiagnostics, ...detail.systemDiagnostics];
  const repaired = detail.mode === "repaired";
  const [only, setOnly] = useState<string | null>(null);
  const itemIds = useMemo(() => new Set(detail.items.map((i) => i.id)), [detail.items]);
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
                . The items each repair changes{itemIds.size > 0 ? " (an id shows its row below)" : ""}:
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
              <details className={styles.lexelts}>
                <summary>
                  By lexelt <span className="muted">({detail.byLexelt.length})</span>
                </summary>
                <Breakdown title={null} label="Lexelt" rows={detail.byLexelt} type={run.type} />
              </details>
            </>
          )}

          <Items items={detail.items} type={run.type} only={only} onShowAll={() => setOnly(null)} />
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

function matches(i: ItemRow, q: string): boolean {
  if (q === "") return true;
  const hay = i.kind === "mw" ? `${i.id} ${i.lexelt} ${i.answer} ${i.mode ?? ""}` : `${i.id} ${i.lexelt} ${i.guesses.join(" ")} ${i.mode ?? ""}`;
  return hay.toLowerCase().includes(q);
}

/** Every attempted item, filtered and paged: 50 rows at a time however many items. */
function Items({ items, type, only, onShowAll }: { items: ItemRow[]; type: "best" | "oot" | "mw"; only: string | null; onShowAll: () => void }) {
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(0);
  const [onlyMissed, setOnlyMissed] = useState(false);
  const q = query.trim().toLowerCase();
  const shown = useMemo(
    () =>
      only !== null
        ? items.filter((i) => i.id === only)
        : items.filter((i) => matches(i, q) && (!onlyMissed || (i.kind === "mw" ? !i.matched : i.credit === 0))),
    [items, q, onlyMissed, only],
  );
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  const p = Math.min(page, pages - 1);
  const rows = shown.slice(p * PAGE, p * PAGE + PAGE);
  return (
    <>
      <h3 id="items-heading">Items</h3>
      <div className={styles.itemTools}>
        <div>
          <label htmlFor="item-filter">Filter</label>
          <input
            id="item-filter"
            type="text"
            value={query}
            placeholder="id, lexelt or word"
            onChange={(e) => {
              setQuery(e.target.value);
              setPage(0);
              onShowAll();
            }}
          />
        </div>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={onlyMissed}
            onChange={(e) => {
              setOnlyMissed(e.target.checked);
              setPage(0);
            }}
          />{" "}
          {type === "mw" ? "Only items not matched" : "Only items without credit"}
        </label>
        <span className="muted small" aria-live="polite">
          {only !== null ? (
            <>
              Item {only} only{" "}
              <button type="button" className={styles.idLink} onClick={onShowAll}>
                show all items
              </button>
            </>
          ) : (
            <>
              {shown.length === 0 ? "No items" : `Items ${p * PAGE + 1}–${p * PAGE + rows.length} of ${shown.length}`}
              {shown.length !== items.length && ` (of ${items.length} attempted)`}
            </>
          )}
        </span>
      </div>
      <div className="table-wrap">
        <table className={styles.compact} aria-labelledby="items-heading">
          <thead>
            {type === "mw" ? (
              <tr>
                <th scope="col" className="num">Line</th>
                <th scope="col">Lexelt</th>
                <th scope="col">Id</th>
                <th scope="col">Answer</th>
                <th scope="col">Gold multiword</th>
                <th scope="col">Detected</th>
                <th scope="col">Identified</th>
              </tr>
            ) : (
              <tr>
                <th scope="col" className="num">Line</th>
                <th scope="col">Lexelt</th>
                <th scope="col">Id</th>
                <th scope="col">Guesses</th>
                <th scope="col">Mode</th>
                <th scope="col" className="num">|H|</th>
                <th scope="col" className="num">Credit</th>
                <th scope="col" className="num">Score</th>
              </tr>
            )}
          </thead>
          <tbody>
            {rows.map((i) =>
              i.kind === "mw" ? (
                <tr key={i.line}>
                  <td className="num">{i.line}</td>
                  <td>{i.lexelt}</td>
                  <td>{i.id}</td>
                  <td>{i.answer}</td>
                  <td>{i.mode ?? <span className="muted">none</span>}</td>
                  <td>{i.genuine ? "yes" : <span className="muted">no</span>}</td>
                  <td>{i.matched ? "yes" : <span className="muted">no</span>}</td>
                </tr>
              ) : (
                <tr key={i.line}>
                  <td className="num">{i.line}</td>
                  <td>{i.lexelt}</td>
                  <td>{i.id}</td>
                  <td className={styles.guesses}>
                    {listAnswers(i.guesses)}
                    {i.truncated && <span className="muted small"> (first ten scored)</span>}
                  </td>
                  <td>
                    {i.mode === null ? (
                      <span className="muted">none</span>
                    ) : (
                      <>
                        {i.mode} <span className={i.modeHit ? styles.hit : styles.miss}>{i.modeHit ? "✓ found" : "✗ missed"}</span>
                      </>
                    )}
                  </td>
                  <td className="num">{i.humanResponses}</td>
                  <td className="num" title={String(i.credit)}>{perlNumber(i.credit)}</td>
                  <td className="num" title={String(i.score)}>{perlNumber(i.score)}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav className={styles.pager} aria-label="Item pages">
          <button type="button" className="secondary" disabled={p === 0} onClick={() => setPage(p - 1)}>
            ← Previous
          </button>
          <span className="small">
            Page {p + 1} of {pages}
          </span>
          <button type="button" className="secondary" disabled={p >= pages - 1} onClick={() => setPage(p + 1)}>
            Next →
          </button>
        </nav>
      )}
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

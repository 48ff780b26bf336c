"use client";
/** One type's runs ranked, by a measure chosen by clicking its column; under a run, its repaired and UTF-8 figures where they differ. */
import { useState } from "react";
import type { RunSummary } from "@/lib/server/scoring";
import type { FiguresMode } from "./client";
import { exact, figure, type Measure, measuresOf, mwNote, pct, ranked, ranks, size } from "./format";
import { RepairNote, RepairedFigure } from "./repairs";
import styles from "./scoring.module.css";
import { useScripted } from "@/app/_ui/scripted";

/** The runs of one type, ranked by a measure chosen by clicking its column. */
export function RankedTable(props: {
  type: "best" | "oot" | "mw";
  title: string;
  blurb: string;
  runs: RunSummary[];
  mode: FiguresMode;
  busy: string | null;
  openId: number | null;
  onOpen: (id: number) => void;
  onDelete: (s: RunSummary) => void;
}) {
  const measures = measuresOf(props.type);
  const [by, setBy] = useState<Measure>(measures[1].key);
  // Without JavaScript the runs stay ranked by the headline measure, and a run's details and deletion need the page's script.
  const scripted = useScripted();
  const rows = ranked(props.runs, props.type, by);
  const rank = ranks(rows, by);
  const id = `results-${props.type}`;
  return (
    <div className={styles.typeBlock}>
      <h3 id={id}>
        {props.title} <span className="muted small">· {props.blurb} Ranked by {measures.find((m) => m.key === by)!.label.toLowerCase()}.</span>
      </h3>
      <div className="table-wrap">
        <table aria-labelledby={id} className={styles.results}>
          <thead>
            <tr>
              <th scope="col" className="num">#</th>
              <th scope="col">System</th>
              <th scope="col" className="num">{props.type === "mw" ? "Found / genuine" : "Attempted"}</th>
              {measures.map((m) => (
                <th key={m.key} scope="col" className="num" aria-sort={by === m.key ? "descending" : undefined}>
                  {scripted ? (
                    <button type="button" className={styles.sortButton} onClick={() => setBy(m.key)} title={`Rank by ${m.label.toLowerCase()}`}>
                      {m.short}
                      {by === m.key ? " ▾" : ""}
                    </button>
                  ) : (
                    <span title={m.label}>
                      {m.short}
                      {by === m.key ? " ▾" : ""}
                    </span>
                  )}
                </th>
              ))}
              <th scope="col" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {rows.map((s, i) => {
              const f = s.figures as Record<string, number | null> | null;
              return (
                <tr key={s.run.id} className={props.openId === s.run.id ? styles.current : undefined}>
                  <td className="num">{rank[i] ?? "—"}</td>
                  <th scope="row" className={styles.rowHead}>
                    {s.run.name}
                    <div className="muted small">
                      {s.run.fileName} · {size(s.run.bytes)}
                      {s.skipped > 0 && (
                        <>
                          {" "}
                          · <span className={styles.bad}>{s.skipped} line{s.skipped === 1 ? "" : "s"} skipped</span>
                        </>
                      )}
                      {s.warnings > 0 && (
                        <>
                          {" "}
                          · <span className={styles.warn}>{s.warnings} warning{s.warnings === 1 ? "" : "s"}</span>
                        </>
                      )}
                    </div>
                    {s.repaired && <RepairNote changes={s.repaired.changes} />}
                    {s.utf8 && <Utf8Note figures={s.utf8} />}
                  </th>
                  <td className="num">
                    {s.problem ? (
                      <span className="muted">—</span>
                    ) : props.type === "mw" ? (
                      <>
                        {`${f!.systemFound} / ${f!.genuine}`}
                        <RepairedCount repaired={s.repaired?.figures} official={`${f!.systemFound} / ${f!.genuine}`} keys={["systemFound", "genuine"]} />
                      </>
                    ) : (
                      <>
                        {`${f!.attempted} / ${f!.total}`}
                        <RepairedCount repaired={s.repaired?.figures} official={`${f!.attempted} / ${f!.total}`} keys={["attempted", "total"]} />
                      </>
                    )}
                  </td>
                  {s.problem ? (
                    <td colSpan={measures.length} className="muted small">
                      {s.problem}
                    </td>
                  ) : (
                    measures.map((m) => {
                      const v = figure(s.figures, m.key);
                      return (
                        <td key={m.key} className={`num ${by === m.key ? styles.sorted : ""}`} title={exact(v)}>
                          {pct(v)}
                          {s.repaired && <RepairedFigure official={v} repaired={figure(s.repaired.figures, m.key)} />}
                        </td>
                      );
                    })
                  )}
                  <td className={styles.rowActions}>
                    {scripted && (
                      <>
                        <button type="button" className="secondary" disabled={props.busy !== null} onClick={() => props.onOpen(s.run.id)} aria-label={`Details of ${s.run.name}`}>
                          {props.busy === `open-${s.run.id}` ? "Opening…" : "Details"}
                        </button>
                        <button type="button" className="quiet" disabled={props.busy !== null} onClick={() => props.onDelete(s)} aria-label={`Delete ${s.run.name}`}>
                          Delete
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {props.type === "mw" && rows.length > 0 && (
        <p className="muted small" data-testid="mw-note">
          {mwNote(rows.every((s) => figure(s.figures, "detectionRecall") === null))}
        </p>
      )}
    </div>
  );
}

/** Read as bytes, a run whose figures differ read as UTF-8 text: those figures, in a line under the run. */
function Utf8Note({ figures }: { figures: NonNullable<RunSummary["utf8"]> }) {
  const f = figures as unknown as Record<string, number | null>;
  const text =
    figures.type === "mw"
      ? `detection P ${pct(f.detectionPrecision)}, identification P ${pct(f.identificationPrecision)}`
      : `P ${pct(f.precision)}, R ${pct(f.recall)}, mode P ${pct(f.modePrecision)}`;
  return <div className="small muted">Read as UTF-8 text (perl -CSD score.pl): {text}.</div>;
}

/** The repaired counts beside the official ones ("2 / 3" then "(repaired 3 / 4)"), when they differ. */
function RepairedCount({ repaired, official, keys }: { repaired: RunSummary["figures"] | undefined; official: string; keys: [string, string] }) {
  if (!repaired) return null;
  const r = repaired as unknown as Record<string, number>;
  const text = `${r[keys[0]]} / ${r[keys[1]]}`;
  if (text === official) return null;
  return <span className={styles.repairedFigure}> (repaired {text})</span>;
}

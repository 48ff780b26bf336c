"use client";
import { useEffect, useState } from "react";
import type { GoldInfo, RunDetail, RunSummary, ScoreBoard } from "@/lib/server/scoring";
import { base, call, FIGURES_PARAM, type FiguresMode, GOLD_PARAM, type GoldChoice, READING_PARAM, type Reading, withFigures, withGold, withReading } from "./client";
import { Compare } from "./compare";
import { Diagnostics, RunDetailView } from "./detail";
import { RepairNote, RepairedFigure } from "./repairs";
import { DownloadLink } from "./download-link";
import { exact, figure, type Measure, measuresOf, mwNote, pct, ranked, ranks, size } from "./format";
import styles from "./scoring.module.css";
import { type Notice, NoticeBox } from "./notice";
import { Baselines, StoreGold, UploadRun } from "./uploads";
import { useScripted } from "@/app/_ui/scripted";

const TYPES = [
  { type: "best", title: "best", blurb: "Up to several guesses; credit divided among them." },
  { type: "oot", title: "out-of-ten (oot)", blurb: "Up to ten guesses, each earning its full credit." },
  { type: "mw", title: "multiword (mw)", blurb: "Whether the target is part of a multiword, and which." },
] as const;


/**
 * The Scoring page's lexical-substitution part: the golds, uploads, the runs of one gold ranked, comparison and one run's detail.
 * Without JavaScript the choices of gold, figures and reading are forms that load the page for them, and the uploads post
 * themselves (`outcomes`: the routes' answers then, by form, app/_ui/native-answer.ts).
 */
export function ScoringWorkbench({ projectId, initialBoard, maxBytes, outcomes = {} }: { projectId: number; initialBoard: ScoreBoard; maxBytes: number; outcomes?: { run?: unknown; gold?: unknown; baselines?: unknown } }) {
  const [board, setBoard] = useState<ScoreBoard>(initialBoard);
  const [mode, setMode] = useState<FiguresMode>(initialBoard.mode);
  const [reading, setReading] = useState<Reading>(initialBoard.reading);
  const gold: GoldChoice = board.gold.id;
  const [goldNotice, setGoldNotice] = useState<Notice>(null);
  const [detail, setDetail] = useState<RunDetail | null>(null);
  const [detailNotice, setDetailNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const scripted = useScripted();
  const api = base(projectId);

  /** Keep the page's URL saying which gold and figures it shows, so a reload shows the same. */
  function remember(choice: GoldChoice, figures: FiguresMode, read: Reading) {
    const url = new URL(window.location.href);
    if (figures === "repaired") url.searchParams.set(FIGURES_PARAM, "repaired");
    else url.searchParams.delete(FIGURES_PARAM);
    url.searchParams.set(READING_PARAM, read);
    if (choice === null) url.searchParams.delete(GOLD_PARAM);
    else url.searchParams.set(GOLD_PARAM, String(choice));
    window.history.replaceState(null, "", url);
  }

  async function reload(choice: GoldChoice, figures: FiguresMode = mode, read: Reading = reading): Promise<boolean> {
    const r = await call<{ board: ScoreBoard }>(withGold(withReading(withFigures(`${api}/results`, figures), read), choice));
    if (!r.ok) {
      setGoldNotice({ kind: "error", message: r.message, details: r.details });
      return false;
    }
    setBoard(r.board);
    remember(r.board.gold.id, figures, read);
    return true;
  }

  // The runs being scored whole in the background (their repaired and UTF-8 figures): the table looks again until they are.
  const computing = board.others?.computing === true;
  useEffect(() => {
    if (!computing) return;
    const t = setTimeout(() => void reload(gold), 2000);
    return () => clearTimeout(t);
  }, [board]);

  async function chooseGold(choice: GoldChoice) {
    setBusy("gold");
    setGoldNotice(null);
    setDetail(null);
    await reload(choice);
    setBusy(null);
  }

  /** Re-score every run (and the open run) in the other mode; the URL keeps the choice for a reload. */
  async function chooseMode(next: FiguresMode) {
    if (next === mode) return;
    const before = mode;
    setBusy("mode");
    setDetailNotice(null);
    setMode(next);
    if (!(await reload(gold, next))) setMode(before);
    else if (detail) await open(detail.run.id, next);
    setBusy(null);
  }

  /** Re-score every run (and the open run) read the other way: as bytes (score.pl) or as UTF-8 text (perl -CSD). */
  async function chooseReading(next: Reading) {
    if (next === reading) return;
    const before = reading;
    setBusy("mode");
    setDetailNotice(null);
    setReading(next);
    if (!(await reload(gold, mode, next))) setReading(before);
    else if (detail) await open(detail.run.id, mode, next);
    setBusy(null);
  }

  async function open(runId: number, figures: FiguresMode = mode, read: Reading = reading, whole = false) {
    setBusy(`open-${runId}`);
    setDetailNotice(null);
    const r = await call<{ detail: RunDetail }>(withReading(withFigures(`${api}/runs/${runId}${whole ? "?whole=1" : ""}`, figures), read));
    setBusy(null);
    if (!r.ok) {
      setDetailNotice({ kind: "error", message: r.message, details: r.details });
      return;
    }
    setDetail(r.detail);
    requestAnimationFrame(() => document.getElementById("run-detail")?.scrollIntoView({ behavior: "smooth", block: "start" }));
  }

  async function remove(s: RunSummary) {
    if (!window.confirm(`Delete the run “${s.run.name}”? Its file and scores go with it.`)) return;
    setBusy(`delete-${s.run.id}`);
    const r = await call<{ message: string }>(`${api}/runs/${s.run.id}`, { method: "DELETE" });
    if (r.ok) {
      if (detail?.run.id === s.run.id) setDetail(null);
      await reload(gold);
      setDetailNotice({ kind: "ok", message: r.message });
    } else setDetailNotice({ kind: "error", message: r.message });
    setBusy(null);
  }

  async function removeGold(g: GoldInfo) {
    if (g.id === null) return;
    if (!window.confirm(`Delete the stored gold “${g.name}”?`)) return;
    setBusy(`delete-gold-${g.id}`);
    const r = await call<{ message: string }>(`${api}/golds/${g.id}`, { method: "DELETE" });
    if (r.ok) {
      await reload(gold === g.id ? null : gold);
      setGoldNotice({ kind: "ok", message: r.message });
    } else setGoldNotice({ kind: "error", message: r.message });
    setBusy(null);
  }

  const current = board.golds.find((g) => g.id === gold);
  const others = board.golds.filter((g) => g.id !== gold && g.runs > 0);

  return (
    <>
      <section aria-labelledby="gold-heading">
        <h2 id="gold-heading">Gold</h2>
        <div className="panel">
          <form method="get" aria-label="Rank runs against" onSubmit={(e) => e.preventDefault()}>
            <fieldset className={styles.goldChoice}>
              <legend className={styles.goldLegend}>Rank runs against</legend>
              {board.golds.map((g) => (
                <div key={g.id ?? "project"} className={styles.goldRow}>
                  <label className={styles.radio}>
                    <input type="radio" name={GOLD_PARAM} value={g.id ?? "project"} checked={gold === g.id} disabled={busy !== null} onChange={() => chooseGold(g.id)} />{" "}
                    <span>
                      {g.id === null ? <>The project’s gold, derived now from the annotators’ responses</> : <strong>{g.label}</strong>}
                      <span className="muted small">
                        {" "}
                        · {g.runs} run{g.runs === 1 ? "" : "s"}
                        {g.id !== null && g.createdBy && <> · uploaded by {g.createdBy}</>}
                      </span>
                    </span>
                  </label>
                  {g.id !== null && scripted && (
                    <button type="button" className="quiet" disabled={busy !== null} onClick={() => removeGold(g)} aria-label={`Delete the gold ${g.name}`}>
                      Delete
                    </button>
                  )}
                </div>
              ))}
            </fieldset>
            <ViewFields figures={mode} reading={reading} />
            {!scripted && (
              <button type="submit" className="secondary">
                Rank against this gold
              </button>
            )}
          </form>
          <StoreGold projectId={projectId} disabled={busy !== null} onStored={async (id) => chooseGold(id)} outcome={outcomes.gold} />
          <p className="small" aria-live="polite">
            Ranking the runs scored with <strong>{board.gold.label}</strong>
            {board.gold.items !== null && (
              <span className="muted">
                {" "}
                · {board.gold.items} gold line{board.gold.items === 1 ? "" : "s"}
              </span>
            )}
            . <span className="muted">A run is scored with the gold chosen when it was uploaded and ranked only among the runs of that gold.</span>
          </p>
          {goldNotice && <NoticeBox notice={goldNotice} />}
          <Diagnostics list={board.goldDiagnostics} title="Gold diagnostics" />
        </div>
      </section>

      <UploadRun projectId={projectId} golds={board.golds} gold={gold} maxBytes={maxBytes} onStored={() => reload(gold)} outcome={outcomes.run} />
      <Baselines projectId={projectId} gold={gold} goldLabel={board.gold.label} disabled={busy !== null} onStored={() => reload(gold)} outcome={outcomes.baselines} />

      <section aria-labelledby="results-heading">
        <div className={styles.sectionHead}>
          <h2 id="results-heading">Results</h2>
          <form method="get" className={styles.resultTools} aria-label="Figures" onSubmit={(e) => e.preventDefault()}>
            {gold !== null && <input type="hidden" name={GOLD_PARAM} value={gold} />}
            <fieldset className={styles.modeSwitch} disabled={busy !== null}>
              <legend>Figures:</legend>
              <label>
                <input type="radio" name={FIGURES_PARAM} value="official" checked={mode === "official"} onChange={() => chooseMode("official")} /> score.pl (official)
              </label>
              <label>
                <input type="radio" name={FIGURES_PARAM} value="repaired" checked={mode === "repaired"} onChange={() => chooseMode("repaired")} /> repaired
              </label>
            </fieldset>
            <fieldset className={styles.modeSwitch} disabled={busy !== null}>
              <legend>Read files as:</legend>
              <label>
                <input type="radio" name={READING_PARAM} value="bytes" checked={reading === "bytes"} onChange={() => chooseReading("bytes")} /> bytes (score.pl)
              </label>
              <label>
                <input type="radio" name={READING_PARAM} value="utf8" checked={reading === "utf8"} onChange={() => chooseReading("utf8")} /> UTF-8 text (perl -CSD)
              </label>
            </fieldset>
            {!scripted && (
              <button type="submit" className="secondary">
                Show
              </button>
            )}
            {board.runs.length > 0 && (
              <DownloadLink href={withGold(withReading(withFigures(`${api}/scores`, mode), reading), gold)}>
                Download scores (JSON)
              </DownloadLink>
            )}
          </form>
        </div>
        <p className="muted small" aria-live="polite">
          {busy === "mode"
            ? "Scoring every run again…"
            : mode === "repaired"
              ? "Figures with the documented repairs of score.pl’s misreadings (docs/scorer.md): not the official figures."
              : "score.pl’s figures, digit for digit. Where a documented repair would change one, the repaired figure follows it in grey."}
        </p>
        {detailNotice && <NoticeBox notice={detailNotice} />}
        {others.length > 0 && (
          <p className="small">
            Also stored, ranked with their own gold:{" "}
            {others.map((g, i) => (
              <span key={g.id ?? "project"}>
                {i > 0 && ", "}
                {scripted ? (
                  <button type="button" className={styles.idLink} disabled={busy !== null} onClick={() => chooseGold(g.id)}>
                    {g.runs} run{g.runs === 1 ? "" : "s"} with {g.id === null ? "the project’s gold" : g.name}
                  </button>
                ) : (
                  <a href={`?${new URLSearchParams({ ...(g.id === null ? {} : { [GOLD_PARAM]: String(g.id) }), ...(mode === "repaired" ? { [FIGURES_PARAM]: "repaired" } : {}), [READING_PARAM]: reading })}`}>
                    {g.runs} run{g.runs === 1 ? "" : "s"} with {g.id === null ? "the project’s gold" : g.name}
                  </a>
                )}
              </span>
            ))}
            .
          </p>
        )}
        {board.runs.length === 0 ? (
          <p className="muted">No system run is scored with {current?.id === null ? "the project’s gold" : (current?.name ?? "this gold")} yet. Upload a .best, .oot or .mw file above.</p>
        ) : (
          TYPES.map((t) => {
            const runs = board.runs.filter((r) => r.run.type === t.type);
            if (runs.length === 0) return null;
            return (
              <RankedTable
                key={t.type}
                type={t.type}
                title={t.title}
                blurb={t.blurb}
                runs={runs}
                mode={mode}
                busy={busy}
                openId={detail?.run.id ?? null}
                onOpen={open}
                onDelete={remove}
              />
            );
          })
        )}
      </section>

      {detail && <RunDetailView
          key={`${detail.run.id}-${detail.mode}-${"paged" in detail}`}
          projectId={projectId}
          detail={detail}
          itemsUrl={withReading(`${api}/runs/${detail.run.id}`, reading)}
          onClose={() => setDetail(null)}
          onWhole={() => open(detail.run.id, mode, reading, true)}
        />}

      {board.runs.length > 1 && <Compare runs={board.runs} />}
    </>
  );
}

/** The figures and reading shown, carried by a form that loads the page for another choice (without JavaScript). */
function ViewFields({ figures, reading }: { figures: FiguresMode; reading: Reading }) {
  return (
    <>
      {figures === "repaired" && <input type="hidden" name={FIGURES_PARAM} value="repaired" />}
      <input type="hidden" name={READING_PARAM} value={reading} />
    </>
  );
}

/** The runs of one type, ranked by a measure chosen by clicking its column. */
function RankedTable(props: {
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


"use client";
/** The Scoring workbench's results: which figures and reading, the downloads, the runs of other golds, and a ranked table for each type. */
import { base, FIGURES_PARAM, GOLD_PARAM, READING_PARAM, withFigures, withGold, withReading } from "./client";
import { DownloadLink } from "./download-link";
import { NoticeBox } from "./notice";
import { RankedTable } from "./ranked-table";
import styles from "./scoring.module.css";
import type { ScoringBoard } from "./use-scoring-board";

const TYPES = [
  { type: "best", title: "best", blurb: "Up to several guesses; credit divided among them." },
  { type: "oot", title: "out-of-ten (oot)", blurb: "Up to ten guesses, each earning its full credit." },
  { type: "mw", title: "multiword (mw)", blurb: "Whether the target is part of a multiword, and which." },
] as const;

export function ResultsSection({ projectId, w, scripted }: { projectId: number; w: ScoringBoard; scripted: boolean }) {
  const { board, gold, busy, mode, reading, detail, detailNotice, chooseGold, chooseMode, chooseReading, open, remove } = w;
  const api = base(projectId);
  const current = board.golds.find((g) => g.id === gold);
  const others = board.golds.filter((g) => g.id !== gold && g.runs > 0);
  return (
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
  );
}

"use client";
/** The Scoring workbench's choice of gold: the golds stored (each deletable), storing another, and which gold the runs are ranked with. */
import { FIGURES_PARAM, type FiguresMode, GOLD_PARAM, READING_PARAM, type Reading } from "./client";
import { Diagnostics } from "./detail";
import { NoticeBox } from "./notice";
import styles from "./scoring.module.css";
import { StoreGold } from "./uploads";
import type { ScoringBoard } from "./use-scoring-board";

export function GoldSection({ projectId, w, scripted, outcome }: { projectId: number; w: ScoringBoard; scripted: boolean; outcome: unknown }) {
  const { board, gold, busy, mode, reading, goldNotice, chooseGold, removeGold } = w;
  return (
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
        <StoreGold projectId={projectId} disabled={busy !== null} onStored={async (id) => chooseGold(id)} outcome={outcome} />
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

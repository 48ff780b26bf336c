"use client";
import { useRef, useState } from "react";
import type { RunDetail, RunSummary, ScoreBoard, UploadRunResult } from "@/lib/server/scoring";
import { base, call, FIGURES_PARAM, type FiguresMode, type GoldChoice, withFigures } from "./client";
import { Compare } from "./compare";
import { Diagnostics, RunDetailView } from "./detail";
import { RepairNote, RepairedFigure } from "./repairs";
import { DownloadLink } from "./download-link";
import { exact, figure, type Measure, measuresOf, pct, ranked, ranks, size } from "./format";
import styles from "./scoring.module.css";

const TYPES = [
  { type: "best", title: "best", blurb: "Up to several guesses; credit divided among them." },
  { type: "oot", title: "out-of-ten (oot)", blurb: "Up to ten guesses, each earning its full credit." },
  { type: "mw", title: "multiword (mw)", blurb: "Whether the target is part of a multiword, and which." },
] as const;

type Notice = { kind: "ok" | "error"; message: string; details?: string[] } | null;

/** The Scoring page's lexical-substitution part: the gold, uploads, the ranked results, comparison and one run's detail. */
export function ScoringWorkbench({ projectId, initialBoard }: { projectId: number; initialBoard: ScoreBoard }) {
  const [board, setBoard] = useState<ScoreBoard>(initialBoard);
  const [mode, setMode] = useState<FiguresMode>(initialBoard.mode);
  const [gold, setGold] = useState<GoldChoice>({ kind: "project" });
  const [pendingGold, setPendingGold] = useState<{ gold: File | null; mwgold: File | null }>({ gold: null, mwgold: null });
  const [goldNotice, setGoldNotice] = useState<Notice>(null);
  const [detail, setDetail] = useState<RunDetail | null>(null);
  const [detailNotice, setDetailNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const api = base(projectId);

  async function reload(choice: GoldChoice, figures: FiguresMode = mode): Promise<boolean> {
    const r = await call<{ board: ScoreBoard }>(withFigures(`${api}/results`, figures), choice.kind === "project" ? null : choice);
    if (!r.ok) {
      setGoldNotice({ kind: "error", message: r.message, details: r.details });
      return false;
    }
    setBoard(r.board);
    return true;
  }

  async function chooseGold(choice: GoldChoice) {
    const before = gold;
    setBusy("gold");
    setGoldNotice(null);
    setGold(choice);
    setDetail(null);
    if (await reload(choice)) {
      setGoldNotice(choice.kind === "project" ? null : { kind: "ok", message: "Scored every run against the uploaded files." });
    } else setGold(before);
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
    else {
      const url = new URL(window.location.href);
      if (next === "repaired") url.searchParams.set(FIGURES_PARAM, "repaired");
      else url.searchParams.delete(FIGURES_PARAM);
      window.history.replaceState(null, "", url);
      if (detail) await open(detail.run.id, next);
    }
    setBusy(null);
  }

  async function open(runId: number, figures: FiguresMode = mode) {
    setBusy(`open-${runId}`);
    setDetailNotice(null);
    const r = await call<{ detail: RunDetail }>(withFigures(`${api}/runs/${runId}`, figures), gold.kind === "project" ? null : gold);
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
    const r = await call<{ message: string }>(`${api}/runs/${s.run.id}`, null, { method: "DELETE" });
    if (r.ok) {
      if (detail?.run.id === s.run.id) setDetail(null);
      await reload(gold);
      setDetailNotice({ kind: "ok", message: r.message });
    } else setDetailNotice({ kind: "error", message: r.message });
    setBusy(null);
  }

  return (
    <>
      <section aria-labelledby="gold-heading">
        <h2 id="gold-heading">Gold</h2>
        <div className="panel">
          <fieldset className={styles.goldChoice}>
            <legend className={styles.srOnly}>Score against</legend>
            <label className={styles.radio}>
              <input
                type="radio"
                name="gold-kind"
                checked={gold.kind === "project"}
                disabled={busy !== null}
                onChange={() => chooseGold({ kind: "project" })}
              />{" "}
              The project’s gold, derived now from the annotators’ responses
            </label>
            <label className={styles.radio}>
              <input
                type="radio"
                name="gold-kind"
                checked={gold.kind === "uploaded"}
                disabled={busy !== null}
                onChange={() => {
                  if (pendingGold.gold || pendingGold.mwgold) chooseGold({ kind: "uploaded", ...pendingGold });
                  else setGoldNotice({ kind: "error", message: "Choose a gold or mwgold file below, then score against them." });
                }}
              />{" "}
              Uploaded gold and mwgold files
            </label>
          </fieldset>
          <form
            className={styles.goldFiles}
            onSubmit={(e) => {
              e.preventDefault();
              if (!pendingGold.gold && !pendingGold.mwgold) {
                setGoldNotice({ kind: "error", message: "Choose a gold file, an mwgold file or both." });
                return;
              }
              chooseGold({ kind: "uploaded", ...pendingGold });
            }}
          >
            <div className="field">
              <label htmlFor="gold-file">Gold (for best and oot)</label>
              <input id="gold-file" type="file" onChange={(e) => setPendingGold((g) => ({ ...g, gold: e.target.files?.[0] ?? null }))} />
            </div>
            <div className="field">
              <label htmlFor="mwgold-file">mwgold (for mw)</label>
              <input id="mwgold-file" type="file" onChange={(e) => setPendingGold((g) => ({ ...g, mwgold: e.target.files?.[0] ?? null }))} />
            </div>
            <button type="submit" className="secondary" disabled={busy !== null}>
              {busy === "gold" ? "Scoring…" : "Score against these files"}
            </button>
          </form>
          <p className="small" aria-live="polite">
            Scoring against <strong>{board.gold.label}</strong>
            {board.gold.items !== null && (
              <span className="muted">
                {" "}
                · {board.gold.items} gold line{board.gold.items === 1 ? "" : "s"}
              </span>
            )}
            .{" "}
            {gold.kind === "uploaded" && <span className="muted">Uploaded gold files are used for this page only; they are not stored.</span>}
          </p>
          {goldNotice && <NoticeBox notice={goldNotice} />}
          <Diagnostics list={board.goldDiagnostics} title="Gold diagnostics" />
        </div>
      </section>

      <UploadRun projectId={projectId} onStored={() => reload(gold)} />

      <section aria-labelledby="results-heading">
        <div className={styles.sectionHead}>
          <h2 id="results-heading">Results</h2>
          <div className={styles.resultTools}>
            <fieldset className={styles.modeSwitch} disabled={busy !== null}>
              <legend>Figures:</legend>
              <label>
                <input type="radio" name="figures" value="official" checked={mode === "official"} onChange={() => chooseMode("official")} /> score.pl (official)
              </label>
              <label>
                <input type="radio" name="figures" value="repaired" checked={mode === "repaired"} onChange={() => chooseMode("repaired")} /> repaired
              </label>
            </fieldset>
            {board.runs.length > 0 && (
              <DownloadLink href={withFigures(`${api}/scores`, mode)} gold={gold} fallbackName={mode === "repaired" ? "scores-repaired.json" : "scores.json"}>
                Download scores (JSON)
              </DownloadLink>
            )}
          </div>
        </div>
        <p className="muted small" aria-live="polite">
          {busy === "mode"
            ? "Scoring every run again…"
            : mode === "repaired"
              ? "Figures with the documented repairs of score.pl’s misreadings (docs/scorer.md): not the official figures."
              : "score.pl’s figures, digit for digit. Where a documented repair would change one, the repaired figure follows it in grey."}
        </p>
        {detailNotice && <NoticeBox notice={detailNotice} />}
        {board.runs.length === 0 ? (
          <p className="muted">No system runs stored yet. Upload a .best, .oot or .mw file above.</p>
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

      {detail && <RunDetailView key={`${detail.run.id}-${detail.mode}`} projectId={projectId} detail={detail} gold={gold} onClose={() => setDetail(null)} />}

      {board.runs.length > 1 && <Compare runs={board.runs} />}
    </>
  );
}

function NoticeBox({ notice }: { notice: NonNullable<Notice> }) {
  return (
    <div className={`notice ${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
      {notice.message}
      {notice.details && notice.details.length > 0 && (
        <details className="repairs">
          <summary>
            {notice.details.length} problem{notice.details.length === 1 ? "" : "s"}
          </summary>
          <pre>{notice.details.join("\n")}</pre>
        </details>
      )}
    </div>
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
                  <button type="button" className={styles.sortButton} onClick={() => setBy(m.key)} title={`Rank by ${m.label.toLowerCase()}`}>
                    {m.short}
                    {by === m.key ? " ▾" : ""}
                  </button>
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
                    <button type="button" className="secondary" disabled={props.busy !== null} onClick={() => props.onOpen(s.run.id)} aria-label={`Details of ${s.run.name}`}>
                      {props.busy === `open-${s.run.id}` ? "Opening…" : "Details"}
                    </button>
                    <button type="button" className="quiet" disabled={props.busy !== null} onClick={() => props.onDelete(s)} aria-label={`Delete ${s.run.name}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The repaired counts beside the official ones ("2 / 3" then "(repaired 3 / 4)"), when they differ. */
function RepairedCount({ repaired, official, keys }: { repaired: RunSummary["figures"] | undefined; official: string; keys: [string, string] }) {
  if (!repaired) return null;
  const r = repaired as unknown as Record<string, number>;
  const text = `${r[keys[0]]} / ${r[keys[1]]}`;
  if (text === official) return null;
  return <span className={styles.repairedFigure}> (repaired {text})</span>;
}

/** Upload a system file: type from the extension or chosen, an optional name. */
function UploadRun({ projectId, onStored }: { projectId: number; onStored: () => Promise<boolean> }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<(UploadRunResult & { ok: true }) | { ok: false; message: string; errors?: Record<string, string>; details?: string[] } | null>(null);
  const errors = result && !result.ok ? (result.errors ?? {}) : {};

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const el = e.currentTarget;
    const form = new FormData(el);
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setResult({ ok: false, message: "Choose a system file to upload.", errors: { file: "Choose a file." } });
      return;
    }
    setBusy(true);
    setResult(null);
    const r = await call<UploadRunResult>(`${base(projectId)}/runs`, null, { method: "POST", body: form });
    setResult(r);
    if (r.ok) {
      el.reset();
      await onStored();
    }
    setBusy(false);
  }

  return (
    <section aria-labelledby="upload-heading">
      <h2 id="upload-heading">Upload a system</h2>
      <form className="panel" onSubmit={onSubmit} noValidate>
        <div className={styles.uploadGrid}>
          <div className="field">
            <label htmlFor="run-file">System file</label>
            <input
              id="run-file"
              ref={fileRef}
              type="file"
              name="file"
              accept=".best,.oot,.mw,.txt,.out,text/plain"
              aria-invalid={errors.file ? true : undefined}
              aria-describedby="run-file-help"
            />
            <div id="run-file-help" className="muted small">
              Lines like <code>bright.a 1 :: clever;smart</code> (best), <code>::: </code>for oot, a multiword for mw.
            </div>
            {errors.file && <div className="field-error">{errors.file}</div>}
          </div>
          <div className="field">
            <label htmlFor="run-type">Type</label>
            <select id="run-type" name="type" defaultValue="auto" aria-invalid={errors.type ? true : undefined}>
              <option value="auto">From the extension</option>
              <option value="best">best</option>
              <option value="oot">oot</option>
              <option value="mw">mw</option>
            </select>
            {errors.type && <div className="field-error">{errors.type}</div>}
          </div>
          <div className="field">
            <label htmlFor="run-name">Name</label>
            <input id="run-name" name="name" type="text" maxLength={80} placeholder="the file name" aria-invalid={errors.name ? true : undefined} />
            {errors.name && <div className="field-error">{errors.name}</div>}
          </div>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Uploading…" : "Upload and score"}
        </button>
        <div aria-live="polite">
          {result?.ok && (
            <div className="notice ok" role="status">
              Stored <strong>{result.run.name}</strong> ({result.run.type}): {result.lines.matched} answer line{result.lines.matched === 1 ? "" : "s"}
              {result.lines.refused > 0 && `, ${result.lines.refused} line${result.lines.refused === 1 ? "" : "s"} not in the format (skipped)`}.
            </div>
          )}
          {result?.ok && <Diagnostics list={result.diagnostics} title="File diagnostics" />}
          {result && !result.ok && <NoticeBox notice={{ kind: "error", message: result.message, details: result.details }} />}
        </div>
      </form>
    </section>
  );
}

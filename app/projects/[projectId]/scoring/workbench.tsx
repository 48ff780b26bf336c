"use client";
import { useRef, useState } from "react";
import type { GoldInfo, RunDetail, RunSummary, ScoreBoard, UploadRunResult } from "@/lib/server/scoring";
import { base, call, CONFIRM_FIELD, FIGURES_PARAM, type FiguresMode, GOLD_PARAM, type GoldChoice, withFigures, withGold } from "./client";
import { Compare } from "./compare";
import { Diagnostics, RunDetailView } from "./detail";
import { RepairNote, RepairedFigure } from "./repairs";
import { DownloadLink } from "./download-link";
import { exact, figure, type Measure, measuresOf, mwNote, pct, ranked, ranks, size } from "./format";
import styles from "./scoring.module.css";

const TYPES = [
  { type: "best", title: "best", blurb: "Up to several guesses; credit divided among them." },
  { type: "oot", title: "out-of-ten (oot)", blurb: "Up to ten guesses, each earning its full credit." },
  { type: "mw", title: "multiword (mw)", blurb: "Whether the target is part of a multiword, and which." },
] as const;

type Notice = { kind: "ok" | "error"; message: string; details?: string[] } | null;

/** The Scoring page's lexical-substitution part: the golds, uploads, the runs of one gold ranked, comparison and one run's detail. */
export function ScoringWorkbench({ projectId, initialBoard, maxBytes }: { projectId: number; initialBoard: ScoreBoard; maxBytes: number }) {
  const [board, setBoard] = useState<ScoreBoard>(initialBoard);
  const [mode, setMode] = useState<FiguresMode>(initialBoard.mode);
  const gold: GoldChoice = board.gold.id;
  const [goldNotice, setGoldNotice] = useState<Notice>(null);
  const [detail, setDetail] = useState<RunDetail | null>(null);
  const [detailNotice, setDetailNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const api = base(projectId);

  /** Keep the page's URL saying which gold and figures it shows, so a reload shows the same. */
  function remember(choice: GoldChoice, figures: FiguresMode) {
    const url = new URL(window.location.href);
    if (figures === "repaired") url.searchParams.set(FIGURES_PARAM, "repaired");
    else url.searchParams.delete(FIGURES_PARAM);
    if (choice === null) url.searchParams.delete(GOLD_PARAM);
    else url.searchParams.set(GOLD_PARAM, String(choice));
    window.history.replaceState(null, "", url);
  }

  async function reload(choice: GoldChoice, figures: FiguresMode = mode): Promise<boolean> {
    const r = await call<{ board: ScoreBoard }>(withGold(withFigures(`${api}/results`, figures), choice));
    if (!r.ok) {
      setGoldNotice({ kind: "error", message: r.message, details: r.details });
      return false;
    }
    setBoard(r.board);
    remember(r.board.gold.id, figures);
    return true;
  }

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

  async function open(runId: number, figures: FiguresMode = mode) {
    setBusy(`open-${runId}`);
    setDetailNotice(null);
    const r = await call<{ detail: RunDetail }>(withFigures(`${api}/runs/${runId}`, figures));
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
          <fieldset className={styles.goldChoice}>
            <legend className={styles.goldLegend}>Rank runs against</legend>
            {board.golds.map((g) => (
              <div key={g.id ?? "project"} className={styles.goldRow}>
                <label className={styles.radio}>
                  <input type="radio" name="gold-kind" checked={gold === g.id} disabled={busy !== null} onChange={() => chooseGold(g.id)} />{" "}
                  <span>
                    {g.id === null ? <>The project’s gold, derived now from the annotators’ responses</> : <strong>{g.label}</strong>}
                    <span className="muted small">
                      {" "}
                      · {g.runs} run{g.runs === 1 ? "" : "s"}
                      {g.id !== null && g.createdBy && <> · uploaded by {g.createdBy}</>}
                    </span>
                  </span>
                </label>
                {g.id !== null && (
                  <button type="button" className="quiet" disabled={busy !== null} onClick={() => removeGold(g)} aria-label={`Delete the gold ${g.name}`}>
                    Delete
                  </button>
                )}
              </div>
            ))}
          </fieldset>
          <StoreGold projectId={projectId} disabled={busy !== null} onStored={async (id) => chooseGold(id)} />
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

      <UploadRun projectId={projectId} golds={board.golds} gold={gold} maxBytes={maxBytes} onStored={() => reload(gold)} />
      <Baselines projectId={projectId} gold={gold} disabled={busy !== null} onStored={() => reload(gold)} />

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
              <DownloadLink href={withGold(withFigures(`${api}/scores`, mode), gold)}>
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
        {others.length > 0 && (
          <p className="small">
            Also stored, ranked with their own gold:{" "}
            {others.map((g, i) => (
              <span key={g.id ?? "project"}>
                {i > 0 && ", "}
                <button type="button" className={styles.idLink} disabled={busy !== null} onClick={() => chooseGold(g.id)}>
                  {g.runs} run{g.runs === 1 ? "" : "s"} with {g.id === null ? "the project’s gold" : g.name}
                </button>
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

      {detail && <RunDetailView key={`${detail.run.id}-${detail.mode}`} projectId={projectId} detail={detail} onClose={() => setDetail(null)} />}

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
      {props.type === "mw" && rows.length > 0 && (
        <p className="muted small" data-testid="mw-note">
          {mwNote(rows.every((s) => figure(s.figures, "detectionRecall") === null))}
        </p>
      )}
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

/** Upload a system file: type from the extension or chosen, an optional name; a file with errors is stored only when confirmed. */
function UploadRun(props: { projectId: number; golds: GoldInfo[]; gold: GoldChoice; maxBytes: number; onStored: () => Promise<boolean> }) {
  const { projectId, golds, gold, maxBytes, onStored } = props;
  const fileRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const confirmRef = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<(UploadRunResult & { ok: true }) | { ok: false; message: string; errors?: Record<string, string>; details?: string[] } | null>(null);
  /** A file refused for its errors, waiting for "Store anyway" (sent again, the same form, confirmed) or "Cancel". */
  const [pending, setPending] = useState<{ form: FormData; fileName: string; message: string; details: string[] } | null>(null);
  const [cancelled, setCancelled] = useState<string | null>(null);
  const errors = result && !result.ok ? (result.errors ?? {}) : {};

  async function send(form: FormData, confirm: boolean) {
    if (confirm) form.set(CONFIRM_FIELD, "1");
    else form.delete(CONFIRM_FIELD);
    setBusy(true);
    setResult(null);
    setCancelled(null);
    const r = await call<UploadRunResult>(`${base(projectId)}/runs`, { method: "POST", body: form });
    setPending(null);
    if (!r.ok && !confirm && r.errors?.[CONFIRM_FIELD]) {
      const file = form.get("file");
      setPending({ form, fileName: file instanceof File ? file.name : "the file", message: r.message, details: r.details ?? [] });
      setBusy(false);
      requestAnimationFrame(() => confirmRef.current?.focus());
      return;
    }
    setResult(r);
    if (r.ok) {
      formRef.current?.reset();
      await onStored();
    }
    setBusy(false);
  }

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setPending(null);
      setResult({ ok: false, message: "Choose a system file to upload.", errors: { file: "Choose a file." } });
      return;
    }
    await send(form, false);
  }

  function cancel() {
    if (!pending) return;
    setCancelled(`Nothing was stored: ${pending.fileName} was left out.`);
    setPending(null);
    fileRef.current?.focus();
  }

  return (
    <section aria-labelledby="upload-heading">
      <h2 id="upload-heading">Upload a system</h2>
      <form ref={formRef} className="panel" onSubmit={onSubmit} noValidate>
        <div className={styles.uploadGrid}>
          <div className="field">
            <label htmlFor="run-file">System file</label>
            <input
              id="run-file"
              ref={fileRef}
              type="file"
              name="file"
              accept=".best,.oot,.mw,.txt,.out,.gz,text/plain,application/gzip"
              aria-invalid={errors.file ? true : undefined}
              aria-describedby="run-file-help"
            />
            <div id="run-file-help" className="muted small">
              Lines like <code>bright.a 1 :: clever;smart</code> (best), <code>::: </code>for oot, a multiword for mw; plain text or gzip, up to{" "}
              {size(maxBytes)}.
            </div>
            {errors.file && <div className="field-error">{errors.file}</div>}
          </div>
          <div className="field">
            <label htmlFor="run-type">Type</label>
            <select id="run-type" name="type" defaultValue="auto" aria-invalid={errors.type ? true : undefined}>
              <option value="auto">From the name or the content</option>
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
          <div className="field">
            <label htmlFor="run-gold">Scored with</label>
            <select id="run-gold" name="gold" key={gold ?? "project"} defaultValue={gold ?? "project"}>
              {golds.map((g) => (
                <option key={g.id ?? "project"} value={g.id ?? "project"}>
                  {g.id === null ? "the project’s gold" : g.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Uploading…" : "Upload and score"}
        </button>
        {pending && (
          <ConfirmRun
            ref={confirmRef}
            fileName={pending.fileName}
            message={pending.message}
            details={pending.details}
            busy={busy}
            onStore={() => send(pending.form, true)}
            onCancel={cancel}
          />
        )}
        <div aria-live="polite">
          {cancelled && (
            <p className="muted" role="status">
              {cancelled}
            </p>
          )}
          {result?.ok && (
            <div className="notice ok" role="status">
              Stored <strong>{result.run.name}</strong> ({result.run.type}
              {result.typeFrom === "content" && <>, read from the content: {result.typeReason}</>}): {result.lines.matched} answer line
              {result.lines.matched === 1 ? "" : "s"}
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

/** A location and message of a diagnostic line (`file:line: error: message`). */
function located(detail: string): { where: string | null; what: string } {
  const m = /^.*?:(\d+): (?:error|warning): (.*)$/.exec(detail);
  if (m) return { where: `line ${m[1]}`, what: m[2] };
  return { where: null, what: detail.replace(/^.*?: (?:error|warning): /, "") };
}

/** The question asked before a run with errors is stored: the errors, located, then "Store anyway" or "Cancel". */
function ConfirmRun(props: {
  ref: React.Ref<HTMLDivElement>;
  fileName: string;
  message: string;
  details: string[];
  busy: boolean;
  onStore: () => void;
  onCancel: () => void;
}) {
  return (
    <div
      ref={props.ref}
      className={styles.confirm}
      role="alertdialog"
      aria-labelledby="confirm-run-heading"
      aria-describedby="confirm-run-message"
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === "Escape") props.onCancel();
      }}
    >
      <h3 id="confirm-run-heading">Store {props.fileName} anyway?</h3>
      <p id="confirm-run-message">{props.message}</p>
      {props.details.length > 0 && (
        <ul className={styles.confirmErrors} aria-label="Errors">
          {props.details.map((d, i) => {
            const { where, what } = located(d);
            return (
              <li key={i}>
                {where && <strong>{where}</strong>} <span>{what}</span>
              </li>
            );
          })}
        </ul>
      )}
      <p className="muted small">Stored, the run is scored without the lines in error; its row says how many were skipped.</p>
      <div className={styles.actions}>
        <button type="button" disabled={props.busy} onClick={props.onStore}>
          {props.busy ? "Storing…" : "Store anyway"}
        </button>
        <button type="button" className="secondary" disabled={props.busy} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** Store a gold and/or mwgold file with the project, to rank runs against it now and after a reload. */
function StoreGold({ projectId, disabled, onStored }: { projectId: number; disabled: boolean; onStored: (id: number) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; errors?: Record<string, string>; details?: string[] } | null>(null);
  const errors = error?.errors ?? {};

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const el = e.currentTarget;
    const form = new FormData(el);
    const has = (f: FormDataEntryValue | null) => f instanceof File && f.name !== "";
    if (!has(form.get("gold")) && !has(form.get("mwgold"))) {
      setError({ message: "Choose a gold file, an mwgold file or both.", errors: { gold: "Choose a gold or mwgold file." } });
      return;
    }
    setBusy(true);
    setError(null);
    const r = await call<{ gold: GoldInfo }>(`${base(projectId)}/golds`, { method: "POST", body: form });
    setBusy(false);
    if (!r.ok) {
      setError(r);
      return;
    }
    el.reset();
    await onStored(r.gold.id!);
  }

  return (
    <form className={styles.goldFiles} onSubmit={onSubmit} noValidate aria-label="Store a gold">
      <div className="field">
        <label htmlFor="gold-file">Gold (for best and oot)</label>
        <input id="gold-file" name="gold" type="file" aria-invalid={errors.gold ? true : undefined} />
        {errors.gold && <div className="field-error">{errors.gold}</div>}
      </div>
      <div className="field">
        <label htmlFor="mwgold-file">mwgold (for mw)</label>
        <input id="mwgold-file" name="mwgold" type="file" aria-invalid={errors.mwgold ? true : undefined} />
        {errors.mwgold && <div className="field-error">{errors.mwgold}</div>}
      </div>
      <div className="field">
        <label htmlFor="gold-name">Name</label>
        <input id="gold-name" name="name" type="text" maxLength={80} placeholder="the file name" aria-invalid={errors.goldName ? true : undefined} />
        {errors.goldName && <div className="field-error">{errors.goldName}</div>}
      </div>
      <button type="submit" className="secondary" disabled={busy || disabled}>
        {busy ? "Storing…" : "Store and rank against it"}
      </button>
      {error && (
        <div className={styles.goldError}>
          <NoticeBox notice={{ kind: "error", message: error.message, details: error.details }} />
        </div>
      )}
    </form>
  );
}

/** Add the task's WordNet baselines (best, oot, mw) over the project's instances as runs of the current gold. */
function Baselines({ projectId, gold, disabled, onStored }: { projectId: number; gold: GoldChoice; disabled: boolean; onStored: () => Promise<boolean> }) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  async function add() {
    setBusy(true);
    setNotice(null);
    const r = await call<{ runs: { type: string }[]; unanswered: Record<string, number> }>(withGold(`${base(projectId)}/baselines`, gold), { method: "POST" });
    if (r.ok) {
      await onStored();
      const parts = r.runs.map((x) => `${x.type} (${r.unanswered[x.type]} unanswered)`);
      setNotice({ kind: "ok", message: `Added the WordNet baseline runs: ${parts.join(", ")}.` });
    } else setNotice({ kind: "error", message: r.message, details: r.details });
    setBusy(false);
  }
  return (
    <section aria-labelledby="baselines-heading">
      <h2 id="baselines-heading">Baselines</h2>
      <div className="panel">
        <p className="small">
          The task’s WordNet baselines (§3.1 of the task paper) over this project’s instances: for best the first synonym found by
          the four criteria in order, for oot the first ten, for mw a WordNet multiword holding the target within two words of it.
          WordNet 3.1, with candidates ranked by its sense tag counts rather than the BNC the paper used.
        </p>
        <button type="button" className="secondary" disabled={busy || disabled} onClick={add}>
          {busy ? "Adding…" : "Add the WordNet baselines as runs"}
        </button>
        <div aria-live="polite">{notice && <NoticeBox notice={notice} />}</div>
      </div>
    </section>
  );
}

"use client";
/** The Scoring page's forms: upload a system file (confirming one with errors), store a gold, add the WordNet baselines. */
import { useEffect, useRef, useState } from "react";
import type { GoldInfo, UploadRunResult } from "@/lib/server/scoring";
import { useScripted } from "@/app/_ui/scripted";
import { base, call, CONFIRM_FIELD, type GoldChoice, withGold } from "./client";
import { Diagnostics } from "./detail";
import { size } from "./format";
import { type Notice, NoticeBox } from "./notice";
import styles from "./scoring.module.css";

type RunAnswer = (UploadRunResult & { ok: true }) | { ok: false; message: string; errors?: Record<string, string>; details?: string[] };

/**
 * Upload a system file: type from the extension or chosen, an optional name; a file with errors is stored only when confirmed.
 * Without JavaScript the form posts itself to the route, which answers with this page (`outcome`: its answer,
 * app/_ui/native-answer.ts); a file with errors is then stored when sent again with the box "Store it anyway" ticked.
 */
export function UploadRun(props: { projectId: number; golds: GoldInfo[]; gold: GoldChoice; maxBytes: number; onStored: () => Promise<boolean>; outcome?: unknown }) {
  const { projectId, golds, gold, maxBytes, onStored } = props;
  const fileRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const confirmRef = useRef<HTMLDivElement>(null);
  const scripted = useScripted();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RunAnswer | null>((props.outcome as RunAnswer | undefined) ?? null);
  /** A file refused for its errors, waiting for "Store anyway" (sent again, the same form, confirmed) or "Cancel". */
  const [pending, setPending] = useState<{ form: FormData; fileName: string; message: string; details: string[] } | null>(null);
  const [cancelled, setCancelled] = useState<string | null>(null);
  const errors = result && !result.ok ? (result.errors ?? {}) : {};
  // The question takes the focus once it is on the page (a frame callback could run before React commits it).
  useEffect(() => {
    if (pending) confirmRef.current?.focus();
  }, [pending]);

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
      <form ref={formRef} className="panel" method="post" action={`${base(projectId)}/runs`} encType="multipart/form-data" onSubmit={onSubmit} noValidate>
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
        {!scripted && (
          <div className="field">
            <label style={{ fontWeight: 400 }}>
              <input type="checkbox" name={CONFIRM_FIELD} value="1" /> Store it anyway if some lines are in error (they are skipped)
            </label>
          </div>
        )}
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

type Refusal = { ok: false; message: string; errors?: Record<string, string>; details?: string[] };

/**
 * Store a gold and/or mwgold file with the project, to rank runs against it now and after a reload. Without
 * JavaScript the form posts itself to the route, which answers with this page showing the gold stored, or the
 * refusal (`outcome`).
 */
export function StoreGold({ projectId, disabled, onStored, outcome }: { projectId: number; disabled: boolean; onStored: (id: number) => Promise<void>; outcome?: unknown }) {
  const [busy, setBusy] = useState(false);
  const refused = outcome as Refusal | { ok: true } | undefined;
  const [error, setError] = useState<{ message: string; errors?: Record<string, string>; details?: string[] } | null>(refused && !refused.ok ? refused : null);
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
    <form className={styles.goldFiles} method="post" action={`${base(projectId)}/golds`} encType="multipart/form-data" onSubmit={onSubmit} noValidate aria-label="Store a gold">
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

type BaselinesAnswer = { ok: true; runs: { type: string }[]; unanswered: Record<string, number> } | { ok: false; message: string; details?: string[] };

function baselinesNotice(r: BaselinesAnswer | undefined): Notice {
  if (!r) return null;
  if (!r.ok) return { kind: "error", message: r.message, details: r.details };
  const parts = r.runs.map((x) => `${x.type} (${r.unanswered[x.type]} unanswered)`);
  return { kind: "ok", message: `Added the WordNet baseline runs: ${parts.join(", ")}.` };
}

/** Add the task's WordNet baselines (best, oot, mw) over the project's instances as runs of the current gold. */
export function Baselines({
  projectId,
  gold,
  goldLabel,
  disabled,
  onStored,
  outcome,
}: {
  projectId: number;
  gold: GoldChoice;
  /** The chosen gold's name: the baselines are scored with it, and a new visit to the page starts on the project's own. */
  goldLabel: string;
  disabled: boolean;
  onStored: () => Promise<boolean>;
  /** The route's answer to the form posted without JavaScript. */
  outcome?: unknown;
}) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(() => baselinesNotice(outcome as BaselinesAnswer | undefined));
  async function add() {
    setBusy(true);
    setNotice(null);
    const r = await call<Omit<BaselinesAnswer & { ok: true }, "ok">>(withGold(`${base(projectId)}/baselines`, gold), { method: "POST" });
    if (r.ok) await onStored();
    setNotice(baselinesNotice(r));
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
        <p className="small" data-testid="baselines-gold">
          Scored with <strong>{goldLabel}</strong>, the gold chosen above.
        </p>
        <form
          method="post"
          action={withGold(`${base(projectId)}/baselines`, gold)}
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <button type="submit" className="secondary" disabled={busy || disabled}>
            {busy ? "Adding…" : "Add the WordNet baselines as runs"}
          </button>
        </form>
        <div aria-live="polite">{notice && <NoticeBox notice={notice} />}</div>
      </div>
    </section>
  );
}

"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import type { InstanceStep, InstanceView, LexeltProgress, OwnResponse, Progress, ResponseKind, WorkspaceView, FlagNote } from "@/lib/server/annotate";
import { workspaceStepAction, workspaceTargetsAction } from "./actions";
import { type SaveResponseResult, postSave } from "./save-request";
import { SIGN_IN_FIRST, SignInAgain } from "../sign-in-again";
import { FlagNoteField, ReturnedBar, ReturnedComment } from "./flag-note";
import { KeysPanel } from "./keys-panel";
import { MAX_PHRASE_LENGTH, MAX_SUBSTITUTE_LENGTH, draftErrors, withoutError } from "./field-rules";
import { Bar } from "./progress-bar";
import { markAnswersChanged } from "./refresh-if-changed";
import { DEFAULT_GUIDELINES, displayText } from "./text";
import { LexeltNote, MarkdownText } from "./guidelines";
import s from "./workspace.module.css";

type Subs = [string, string, string];

interface Draft {
  kind: ResponseKind;
  subs: Subs;
  multiword: boolean;
  phrase: string;
}

interface StoredDraft {
  draft: Draft;
  /** The revision the draft was started from: saving it against a newer one is a conflict. */
  baseRevision: number;
}

function fromResponse(r: OwnResponse | null): Draft {
  if (!r) return { kind: "substitutes", subs: ["", "", ""], multiword: false, phrase: "" };
  const subs: Subs = ["", "", ""];
  r.substitutes.slice(0, 3).forEach((v, i) => (subs[i] = v));
  return { kind: r.kind, subs, multiword: r.multiword !== null, phrase: r.multiword ?? "" };
}

function sameDraft(a: Draft, b: Draft): boolean {
  const norm = (d: Draft) =>
    JSON.stringify([d.kind, d.kind === "substitutes" ? d.subs.map((x) => x.trim()) : [], d.multiword, d.multiword ? d.phrase.trim() : ""]);
  return norm(a) === norm(b);
}

function draftKey(userId: number, projectId: number, ref: number) {
  return `lexgold:draft:${userId}:${projectId}:${ref}`;
}

function readDraft(key: string): StoredDraft | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const v = JSON.parse(raw) as StoredDraft;
    if (!v?.draft || !Array.isArray(v.draft.subs) || typeof v.baseRevision !== "number") return null;
    return v;
  } catch {
    return null;
  }
}

function describe(d: { kind: ResponseKind; substitutes: string[]; multiword: string | null }): string {
  const answer = d.kind === "substitutes" ? d.substitutes.join(", ") || "(nothing)" : d.kind;
  return d.multiword ? `${answer} · multiword “${d.multiword}”` : answer;
}

function draftAsResponse(d: Draft) {
  return {
    kind: d.kind,
    substitutes: d.kind === "substitutes" ? d.subs.map((x) => x.trim()).filter(Boolean) : [],
    multiword: d.multiword ? d.phrase.trim() : null,
  };
}

/** A message for the next instance's status line, carried across the navigation. */
let carriedStatus: string | null = null;

const SUB_FIELDS = ["substitute1", "substitute2", "substitute3"] as const;

type Status = { tone: "ok" | "error" | "info"; text: string } | null;

interface PaneProps {
  step: InstanceStep;
  project: WorkspaceView["project"];
  progress: Progress;
  /** The freshest counts of the instance's lexelt. */
  current: LexeltProgress;
  userId: number;
  targets: LexeltProgress[] | null;
  targetCount: number;
  fewTargets: boolean;
  onOpenTargets: () => void;
  navigating: boolean;
  go: (ref: number | null) => void;
  skip: () => void;
  onSaved: (ref: number, res: Extract<SaveResponseResult, { ok: true }>) => void;
  onResponse: (ref: number, response: OwnResponse) => void;
  /** Instances returned to the annotator and still open. */
  returned: { count: number; firstRef: number | null };
  onFlag: (ref: number, flag: FlagNote) => void;
}

/** One instance: the sentence, the form, the neighbours; remounted (keyed by instance) on every move. */
function InstancePane({ step: view, project, progress, current, userId, targets, targetCount, fewTargets, onOpenTargets, navigating, go, skip, onSaved, onResponse, returned, onFlag }: PaneProps) {
  const { instance } = view;
  const saved = fromResponse(view.response);
  const [draft, setDraftState] = useState<Draft>(saved);
  const [baseRevision, setBaseRevision] = useState(view.response?.revision ?? 0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>(null);
  const [restored, setRestored] = useState(false);
  const [conflict, setConflict] = useState<{ mine: Draft; saved: OwnResponse } | null>(null);
  const [saving, setSaving] = useState(false);
  const [flagNote, setFlagNoteState] = useState<FlagNote>(view.flag);
  const flagNoteRef = useRef(flagNote);
  const flagSelectRef = useRef<HTMLSelectElement>(null);
  const setFlagNote = (v: FlagNote) => {
    flagNoteRef.current = v;
    setFlagNoteState(v);
  };
  const stash = useRef<Subs | null>(null);
  const draftRef = useRef(draft);
  const baseRef = useRef(baseRevision);
  const savingRef = useRef(false);
  const subRefs = [useRef<HTMLInputElement>(null), useRef<HTMLInputElement>(null), useRef<HTMLInputElement>(null)];
  const phraseRef = useRef<HTMLInputElement>(null);
  const saveRef = useRef<HTMLButtonElement>(null);
  const conflictRef = useRef<HTMLHeadingElement>(null);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const guidelinesHeading = useRef<HTMLHeadingElement>(null);
  const focusPhrase = useRef(false);
  const active = useRef({ ms: 0, since: 0 });
  /** Aborted when the pane goes (another instance): a save waiting to go again is not sent, its draft kept. */
  const unmounted = useRef(new AbortController());
  useEffect(() => {
    const c = new AbortController();
    unmounted.current = c;
    return () => c.abort();
  }, []);
  const key = draftKey(userId, project.id, instance.ref);
  /** Skip: the next unanswered instance, else simply the next one. */
  const skipTo = view.nextUnansweredRef ?? view.nextRef;
  const base = `/annotate/${project.id}`;

  const keepDraft = useCallback(
    (d: Draft, rev: number) => {
      try {
        if (sameDraft(d, fromResponse(view.response)) && rev === (view.response?.revision ?? 0)) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, JSON.stringify({ draft: d, baseRevision: rev } satisfies StoredDraft));
      } catch {
        /* storage full or disabled: the draft just isn't kept */
      }
    },
    [key, view.response],
  );

  const setDraft = useCallback(
    (d: Draft) => {
      draftRef.current = d;
      setDraftState(d);
      keepDraft(d, baseRef.current);
    },
    [keepDraft],
  );

  function setBase(rev: number) {
    baseRef.current = rev;
    setBaseRevision(rev);
  }

  // On arrival: restore an unsaved draft, pick up the status carried from the
  // previous instance, focus the first field, start the activity clock.
  useEffect(() => {
    const stored = readDraft(key);
    let d = draftRef.current;
    if (stored && !sameDraft(stored.draft, d)) {
      d = stored.draft;
      draftRef.current = d;
      setDraftState(d);
      setBase(stored.baseRevision);
      setRestored(true);
    } else if (stored) {
      window.localStorage.removeItem(key);
    }
    if (carriedStatus) {
      setStatus({ tone: "ok", text: carriedStatus });
      carriedStatus = null;
    }
    const first = subRefs[0].current;
    if (d.kind === "substitutes" && first) {
      first.focus();
      first.setSelectionRange(first.value.length, first.value.length);
    } else saveRef.current?.focus();
    active.current = { ms: 0, since: document.visibilityState === "visible" ? performance.now() : 0 };
    const onVisibility = () => {
      const a = active.current;
      if (document.visibilityState === "visible") a.since = performance.now();
      else if (a.since) {
        a.ms += performance.now() - a.since;
        a.since = 0;
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  useEffect(() => {
    if (focusPhrase.current && draft.multiword) {
      focusPhrase.current = false;
      const el = phraseRef.current;
      if (el) {
        el.focus();
        el.setSelectionRange(el.value.length, el.value.length);
      }
    }
  }, [draft.multiword]);

  useEffect(() => {
    if (conflict) conflictRef.current?.focus();
  }, [conflict]);

  function activeMs(): number {
    const a = active.current;
    return Math.round(a.ms + (a.since ? performance.now() - a.since : 0));
  }

  /** Show refused fields beside the fields, and focus the first. */
  function showErrors(errs: Record<string, string>, message?: string) {
    setErrors(errs);
    const onFields = Object.keys(errs).filter((k) => k !== "form").length;
    const text = onFields > 1 ? "Not saved: see the marked fields." : onFields === 1 ? "Not saved: see the marked field." : errs.form ? "Not saved." : (message ?? "Not saved.");
    setStatus({ tone: "error", text });
    const first = SUB_FIELDS.findIndex((f) => errs[f]);
    if (first >= 0) subRefs[first].current?.focus();
    else if (errs.multiword) phraseRef.current?.focus();
  }

  async function save(expectedRevision = baseRef.current) {
    if (savingRef.current) return;
    const first = draftRef.current;
    // The save rules, checked here first: nothing is sent (or stored) when a field breaks one.
    const refused = draftErrors(first, instance);
    if (refused) {
      showErrors(refused);
      return;
    }
    savingRef.current = true;
    setSaving(true);
    setStatus({ tone: "info", text: "Saving…" });
    // The draft last sent: a save the server asks to wait for goes again with what the fields hold then.
    let d = first;
    const signal = unmounted.current.signal;
    try {
      const res = await postSave(
        project.id,
        instance.ref,
        () => {
          const now = draftRef.current;
          if (!draftErrors(now, instance)) d = now;
          return {
            response: {
              kind: d.kind,
              substitutes: d.kind === "substitutes" ? [...d.subs] : [],
              multiword: d.multiword,
              phrase: d.phrase,
              flag: flagNoteRef.current.flag,
              note: flagNoteRef.current.note,
            },
            expectedRevision,
            activeMs: activeMs(),
          };
        },
        {
          signal,
          // 429: the server asked this browser to slow down. The draft stays here until the save is acknowledged.
          onWait: (seconds) =>
            setStatus({ tone: "info", text: `The server is busy: your answer is kept here and goes again in ${seconds} s.` }),
        },
      );
      if (res.ok) {
        try {
          if (sameDraft(draftRef.current, d)) window.localStorage.removeItem(key);
        } catch {
          /* ignore */
        }
        setErrors({});
        setConflict(null);
        setRestored(false);
        setBase(res.revision);
        carriedStatus = `Saved ${instance.instanceId}.`;
        setStatus({ tone: "ok", text: `Saved ${instance.instanceId}.` });
        onSaved(instance.ref, res);
      } else if (res.conflict) {
        setConflict({ mine: d, saved: res.conflict });
        setStatus({ tone: "error", text: "Not saved: choose which answer to keep." });
      } else {
        showErrors(res.errors ?? {}, res.message);
      }
    } catch {
      // Gone from this instance while waiting: the draft stays in the browser, restored on return.
      if (signal.aborted) return;
      setStatus({ tone: "error", text: "Could not reach the server. Your answer is kept here as a draft; try again." });
    } finally {
      savingRef.current = false;
      if (!signal.aborted) setSaving(false);
    }
  }

  function chooseKind(kind: "NAME" | "NIL") {
    const d = draftRef.current;
    if (d.kind === kind) {
      setDraft({ ...d, kind: "substitutes", subs: stash.current ?? ["", "", ""] });
      stash.current = null;
      setTimeout(() => subRefs[0].current?.focus(), 0);
    } else {
      if (d.kind === "substitutes") stash.current = d.subs;
      setDraft({ ...d, kind, subs: ["", "", ""] });
      setErrors(({ substitute1, substitute2, substitute3, ...rest }) => rest);
      setTimeout(() => saveRef.current?.focus(), 0);
    }
  }

  function toggleMultiword() {
    const d = draftRef.current;
    if (d.multiword) {
      setDraft({ ...d, multiword: false });
    } else {
      focusPhrase.current = true;
      setDraft({ ...d, multiword: true, phrase: d.phrase || instance.head });
    }
    setErrors(({ multiword, ...rest }) => rest);
  }

  function toggleFlag() {
    const f = flagNoteRef.current;
    setFlagNote({ ...f, flag: f.flag === null ? "unsure" : null });
    if (f.flag === null) setTimeout(() => flagSelectRef.current?.focus(), 0);
  }

  function openGuidelines() {
    const dlg = dialogRef.current;
    if (dlg && !dlg.open) {
      dlg.showModal();
      dlg.scrollTop = 0;
      guidelinesHeading.current?.focus();
    }
  }

  // Keyboard shortcuts, chosen not to clash with typing.
  const shortcuts = useRef<(e: KeyboardEvent) => void>(() => {});
  shortcuts.current = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    if (dialogRef.current?.open) return;
    const t = e.target as HTMLElement | null;
    const typing = !!t && (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && (t as HTMLInputElement).type === "text"));
    const act = (f: () => void) => {
      e.preventDefault();
      if (!e.repeat) f();
    };
    if (e.altKey && !e.shiftKey) {
      switch (e.code) {
        case "KeyN":
          return act(() => chooseKind("NAME"));
        case "KeyL":
          return act(() => chooseKind("NIL"));
        case "KeyM":
          return act(toggleMultiword);
        case "KeyS":
          return skipTo !== null ? act(skip) : e.preventDefault();
        case "KeyG":
          return act(openGuidelines);
        case "KeyF":
          return act(toggleFlag);
        case "ArrowLeft":
          return view.prevRef !== null ? act(() => go(view.prevRef)) : e.preventDefault();
        case "ArrowRight":
          return view.nextRef !== null ? act(() => go(view.nextRef)) : e.preventDefault();
      }
      return;
    }
    if (e.altKey) return;
    if (e.key === "PageUp" && view.prevRef !== null) return act(() => go(view.prevRef));
    if (e.key === "PageDown" && view.nextRef !== null) return act(() => go(view.nextRef));
    if (e.key === "?" && !typing) return act(openGuidelines);
    if ((e.key === "f" || e.key === "F") && !e.shiftKey && !typing && t?.tagName !== "SELECT") return act(toggleFlag);
  };
  useEffect(() => {
    const h = (e: KeyboardEvent) => shortcuts.current(e);
    document.addEventListener("keydown", h);
    return () => document.removeEventListener("keydown", h);
  }, []);

  function fieldProps(field: string, id: string) {
    const err = errors[field];
    return { id, "aria-invalid": err ? true : undefined, "aria-describedby": err ? `${id}-error` : undefined } as const;
  }

  const isSubs = draft.kind === "substitutes";
  const pct = (done: number, total: number) => (total > 0 ? `${Math.round((done / total) * 100)}%` : "0%");
  const guidelines = project.guidelines.trim() || DEFAULT_GUIDELINES;
  const unsaved = !sameDraft(draft, saved) || baseRevision !== (view.response?.revision ?? 0);

  return (
    <div className={s.layout} aria-busy={navigating || undefined}>
      <section className={`panel ${s.main} ${navigating ? s.loading : ""}`} aria-labelledby="instance-heading">
        <div className={s.topline}>
          <h1 id="instance-heading" className={s.heading}>
            <span className={s.target}>
              Target: <strong>{instance.lemma}</strong>
            </span>
            <span className="muted small">
              {" "}
              · instance {instance.instanceId} · {view.position} of {progress.total}
            </span>
          </h1>
          <button type="button" className={`secondary ${s.help}`} onClick={openGuidelines} aria-keyshortcuts="Shift+? Alt+G">
            <span aria-hidden="true" className={s.q}>?</span> Guidelines
          </button>
        </div>

        <ReturnedBar projectId={project.id} returned={returned} currentRef={instance.ref} go={go} />
        {view.returnComment !== null && <ReturnedComment comment={view.returnComment} />}

        <p className={s.sentence} lang="en">
          {displayText(instance.before)}
          <mark>{instance.head}</mark>
          {displayText(instance.after)}
        </p>
        <LexeltNote note={instance.note} />

        {restored && <p className={`small muted ${s.note}`}>Restored unsaved draft.</p>}
        {!restored && (
          <p className={`small muted ${s.note}`}>
            {unsaved
              ? view.response
                ? "Changed, not saved yet."
                : "Not saved yet."
              : view.response
                ? `Your saved answer: ${describe(view.response)}`
                : "Not answered yet."}
          </p>
        )}

        {conflict && (
          <section className={`notice warn ${s.conflict}`} aria-labelledby="conflict-heading">
            <h2 id="conflict-heading" tabIndex={-1} ref={conflictRef}>
              Saved elsewhere in the meantime
            </h2>
            <p className="small">This instance was saved in another tab or window after you opened it. Which answer should stay?</p>
            <dl className={s.versions}>
              <div>
                <dt>Yours (not saved)</dt>
                <dd>{describe(draftAsResponse(conflict.mine))}</dd>
              </div>
              <div>
                <dt>Saved (revision {conflict.saved.revision})</dt>
                <dd>{describe(conflict.saved)}</dd>
              </div>
            </dl>
            <div className={s.row}>
              <button type="button" disabled={saving} onClick={() => save(conflict.saved.revision)}>
                Keep mine
              </button>
              <button
                type="button"
                className="secondary"
                disabled={saving}
                onClick={() => {
                  const d = fromResponse(conflict.saved);
                  draftRef.current = d;
                  setDraftState(d);
                  setBase(conflict.saved.revision);
                  try {
                    window.localStorage.removeItem(key);
                  } catch {
                    /* ignore */
                  }
                  setConflict(null);
                  setRestored(false);
                  setErrors({});
                  setStatus({ tone: "ok", text: "Kept the saved answer." });
                  onResponse(instance.ref, conflict.saved);
                  setTimeout(() => saveRef.current?.focus(), 0);
                }}
              >
                Use saved
              </button>
            </div>
          </section>
        )}

        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <fieldset className={s.fieldset} disabled={!isSubs}>
            <legend>Substitutes</legend>
            <p className="muted small" id="subs-hint">
              Up to three, one per field, all equally good. A phrase or a slightly more general word is fine.
            </p>
            <div className={s.subs}>
              {SUB_FIELDS.map((field, i) => (
                <div className={s.sub} key={field}>
                  <label htmlFor={`sub${i + 1}`}>Substitute {i + 1}</label>
                  <input
                    ref={subRefs[i]}
                    type="text"
                    autoComplete="off"
                    autoCapitalize="none"
                    maxLength={MAX_SUBSTITUTE_LENGTH}
                    value={draft.subs[i]}
                    onChange={(e) => {
                      const subs = [...draftRef.current.subs] as Subs;
                      subs[i] = e.target.value;
                      setDraft({ ...draftRef.current, subs });
                      setErrors((errs) => withoutError(errs, field));
                    }}
                    {...fieldProps(field, `sub${i + 1}`)}
                  />
                  {errors[field] && (
                    <div id={`sub${i + 1}-error`} className="field-error">
                      {errors[field]}
                    </div>
                  )}
                </div>
              ))}
            </div>
          </fieldset>

          <div className={s.kinds} role="group" aria-label="Instead of substitutes">
            <span className="muted small">or</span>
            <button
              type="button"
              className={draft.kind === "NAME" ? s.pressed : "secondary"}
              aria-pressed={draft.kind === "NAME"}
              aria-keyshortcuts="Alt+N"
              onClick={() => chooseKind("NAME")}
            >
              NAME <span className={s.why}>part of a proper name</span>
            </button>
            <button
              type="button"
              className={draft.kind === "NIL" ? s.pressed : "secondary"}
              aria-pressed={draft.kind === "NIL"}
              aria-keyshortcuts="Alt+L"
              onClick={() => chooseKind("NIL")}
            >
              NIL <span className={s.why}>no good substitute</span>
            </button>
          </div>

          <div className={s.multiword}>
            <label className={s.check}>
              <input
                type="checkbox"
                checked={draft.multiword}
                aria-keyshortcuts="Alt+M"
                onChange={toggleMultiword}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    void save();
                  }
                }}
              />
              Part of a multiword
            </label>
            {draft.multiword && (
              <div className={s.phrase}>
                <label htmlFor="phrase">Multiword phrase</label>
                <input
                  ref={phraseRef}
                  type="text"
                  autoComplete="off"
                  autoCapitalize="none"
                  maxLength={MAX_PHRASE_LENGTH}
                  value={draft.phrase}
                  onChange={(e) => {
                    setDraft({ ...draftRef.current, phrase: e.target.value });
                    setErrors((errs) => withoutError(errs, "multiword"));
                  }}
                  {...fieldProps("multiword", "phrase")}
                />
                {errors.multiword ? (
                  <div id="phrase-error" className="field-error">
                    {errors.multiword}
                  </div>
                ) : (
                  <div className="muted small">The whole phrase the target belongs to, e.g. a phrasal verb or an idiom.</div>
                )}
              </div>
            )}
          </div>

          <FlagNoteField
            projectId={project.id}
            instanceRef={instance.ref}
            value={flagNote}
            saved={view.flag}
            onChange={setFlagNote}
            onSaved={(f) => {
              setFlagNote(f);
              onFlag(instance.ref, f);
            }}
            selectRef={flagSelectRef}
          />

          {errors.form && (
            <p className="notice error" id="form-error" role="alert">
              {errors.form}
            </p>
          )}

          <div className={s.actions}>
            <button type="submit" ref={saveRef} disabled={saving} aria-keyshortcuts="Enter">
              Save &amp; next
            </button>
            <p role="status" aria-live="polite" className={`${s.status} ${status ? s[status.tone] : ""}`}>
              {status?.text ?? ""}
              {status?.text === SIGN_IN_FIRST && (
                <>
                  {" "}
                  <SignInAgain />
                  {" "}(your answer is kept here as a draft).
                </>
              )}
              {navigating && !saving ? " Loading…" : ""}
            </p>
          </div>
        </form>

        <nav className={s.nav} aria-label="Instances">
          {view.prevRef !== null ? (
            <a className="button secondary" href={`${base}/${view.prevRef}`} onClick={inPage(() => go(view.prevRef))} aria-keyshortcuts="Alt+ArrowLeft PageUp">
              ← Previous
            </a>
          ) : (
            <span className={`button secondary ${s.off}`} aria-disabled="true">
              ← Previous
            </span>
          )}
          <button
            type="button"
            className="secondary"
            disabled={skipTo === null}
            onClick={skip}
            aria-keyshortcuts="Alt+S"
            title="Go on without saving; this instance stays unanswered"
          >
            Skip
          </button>
          {view.nextRef !== null ? (
            <a className="button secondary" href={`${base}/${view.nextRef}`} onClick={inPage(() => go(view.nextRef))} aria-keyshortcuts="Alt+ArrowRight PageDown">
              Next →
            </a>
          ) : (
            <span className={`button secondary ${s.off}`} aria-disabled="true">
              Next →
            </span>
          )}
        </nav>
      </section>

      <aside className={s.side} aria-label="Progress and keys">
        <section className="panel">
          <h2 className={s.sideHeading}>Progress</h2>
          <Bar label="Overall progress" done={progress.done} total={progress.total} />
          <p className={s.count}>
            <strong>{progress.done}</strong> of {progress.total} done
          </p>
          <Bar label={`Progress on ${current.label}`} done={current.done} total={current.total} small />
          <p className="small muted">
            {current.label}: {current.done} of {current.total}
          </p>
          <details
            className={s.lexelts}
            open={fewTargets}
            onToggle={(e) => {
              if ((e.currentTarget as HTMLDetailsElement).open) onOpenTargets();
            }}
          >
            <summary>All targets{targets ? ` (${targets.length})` : fewTargets ? ` (${targetCount})` : ""}</summary>
            {targets === null && <p className="small muted">Loading…</p>}
            <ul className="plain">
              {(targets ?? []).map((l) => (
                <li key={l.lexeltId} aria-current={l.lexeltId === current.lexeltId ? "true" : undefined}>
                  <Link href={`${base}?lexelt=${l.lexeltId}`} prefetch={false}>
                    {l.label}
                  </Link>
                  <span className={s.mini} aria-hidden="true">
                    <span style={{ width: pct(l.done, l.total) }} />
                  </span>
                  <span className="small muted">
                    {l.done}/{l.total}
                  </span>
                </li>
              ))}
            </ul>
          </details>
        </section>
        <KeysPanel>
          <Keys />
        </KeysPanel>
      </aside>

      <dialog ref={dialogRef} className={s.dialog} aria-labelledby="guidelines-heading">
        <h2 id="guidelines-heading" tabIndex={-1} ref={guidelinesHeading}>
          Guidelines
        </h2>
        <MarkdownText text={guidelines} className={s.guidelines} />
        <h3>Keys</h3>
        <Keys />
        <form method="dialog">
          <button type="submit">
            Close
          </button>
        </form>
      </dialog>
    </div>
  );
}

/** A plain left click follows the link in the page; a modified one (new tab, window) is left to the browser. */
function inPage(f: () => void) {
  return (e: React.MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    f();
  };
}

interface CachedStep extends InstanceStep {
  /** The store's generation (number of saves) when the server sent it: older ones may point Skip at an answered instance. */
  gen: number;
}

/**
 * What this tab knows of one annotator's queue in one project, kept across the
 * workspace's mounts (Next's router may bring back a page rendered before
 * later saves: what is here is newer, and wins). Steps hold the instance, its
 * neighbours and the caller's own response; counts only ever grow with saves.
 */
interface QueueStore {
  steps: Map<number, CachedStep>;
  lexelts: Map<number, LexeltProgress>;
  progress: Progress;
  gen: number;
  /** Instances returned to the annotator and still open (from the page, then from each save). */
  returned: { count: number; firstRef: number | null };
}

const stores = new Map<string, QueueStore>();

function storeFor(userId: number, projectId: number, progress: Progress, returned: QueueStore["returned"]): QueueStore {
  const k = `${userId}:${projectId}`;
  let st = stores.get(k);
  if (!st) stores.set(k, (st = { steps: new Map(), lexelts: new Map(), progress, gen: 0, returned }));
  return st;
}

const revisionOf = (r: OwnResponse | null) => r?.revision ?? 0;

/** Keep a step the server sent; a response this tab knows to be newer (a later revision) stays. */
function keepStep(st: QueueStore, step: InstanceStep, fresh: boolean) {
  const had = st.steps.get(step.instance.ref);
  const response = had && revisionOf(had.response) > revisionOf(step.response) ? had.response : step.response;
  st.steps.set(step.instance.ref, { ...step, response, gen: fresh || !had ? st.gen : had.gen });
  const l = st.lexelts.get(step.lexelt.lexeltId);
  if (fresh || !l || l.done <= step.lexelt.done) st.lexelts.set(step.lexelt.lexeltId, step.lexelt);
}

function stepsOf(view: WorkspaceView): InstanceStep[] {
  if (!view.instance || !view.lexelt) return view.upcoming;
  const { instance, position, response, prevRef, nextRef, nextUnansweredRef, lexelt, flag, returnComment } = view;
  return [{ instance, position, response, prevRef, nextRef, nextUnansweredRef, lexelt, flag, returnComment }, ...view.upcoming];
}

/** The instance ref in a workspace URL (/annotate/P/I), or null. */
function refInPath(projectId: number, path: string): number | null {
  const m = new RegExp(`^/annotate/${projectId}/(\\d+)$`).exec(path);
  return m ? Number(m[1]) : null;
}

/**
 * The annotation workspace. The page renders the first instance and the few
 * after it; from then on the workspace moves from data it holds: a save answers
 * with the next instances and the counts, Previous / Next / Skip and the
 * browser's back and forward show what is held (asking the server only for an
 * instance it has not seen), and the address follows with history.pushState,
 * so a reload or a shared link opens the same instance.
 */
export function Workspace({ view, userId }: { view: WorkspaceView & { instance: InstanceView }; userId: number }) {
  const { project } = view;
  const router = useRouter();
  const base = `/annotate/${project.id}`;
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  const storeRef = useRef<QueueStore | null>(null);
  if (storeRef.current === null) {
    const st = storeFor(userId, project.id, view.progress, view.returned);
    // The page is fresh from the server: its count of returned instances (and its comments) win.
    st.returned = view.returned;
    for (const step of stepsOf(view)) keepStep(st, step, false);
    if (view.progress.done >= st.progress.done) st.progress = view.progress;
    storeRef.current = st;
  }
  const store = storeRef.current;
  const [currentRef, setCurrentRef] = useState(view.instance.ref);
  const [navigating, setNavigating] = useState(false);
  const [targets, setTargets] = useState<LexeltProgress[] | null>(null);
  const wanted = useRef(0);
  const targetsAsked = useRef(false);

  /** Ask the server for an instance (and the few after it); false when it refuses. */
  const fetchStep = useCallback(
    async (ref: number): Promise<boolean> => {
      const r = await workspaceStepAction(project.id, ref);
      if (!r.ok) return false;
      for (const step of stepsOf(r.view)) keepStep(store, step, true);
      store.progress = r.view.progress;
      return store.steps.has(ref);
    },
    [project.id, store],
  );

  /** Show an instance: at once when held, else after asking the server; push its address unless the browser moved there itself. */
  const show = useCallback(
    async (ref: number, push: boolean) => {
      const ticket = ++wanted.current;
      if (!store.steps.has(ref)) {
        setNavigating(true);
        let ok = false;
        try {
          ok = await fetchStep(ref);
        } catch {
          ok = false;
        }
        if (ticket !== wanted.current) return;
        setNavigating(false);
        // Not in the queue (any more) or unreachable: let the page say why.
        if (!ok) return router.push(`${base}/${ref}`);
      }
      if (ticket !== wanted.current) return;
      if (push && refInPath(project.id, window.location.pathname) !== ref) window.history.pushState(null, "", `${base}/${ref}`);
      setCurrentRef(ref);
      rerender();
      // Have the next one ready too.
      const next = store.steps.get(ref)?.nextRef;
      if (next != null && !store.steps.has(next)) {
        fetchStep(next).then(rerender, () => {});
      }
    },
    [base, fetchStep, project.id, router, store],
  );

  const go = useCallback(
    (ref: number | null) => {
      if (ref === null) router.push(base);
      else void show(ref, true);
    },
    [base, router, show],
  );

  const skip = useCallback(async () => {
    let here = store.steps.get(currentRef);
    // After saves, where the next unanswered instance is may have moved on: ask afresh.
    if (here && here.gen !== store.gen) {
      setNavigating(true);
      try {
        await fetchStep(currentRef);
      } catch {
        /* go with what is held */
      }
      setNavigating(false);
      here = store.steps.get(currentRef);
    }
    const to = here ? (here.nextUnansweredRef ?? here.nextRef) : null;
    if (to !== null) go(to);
  }, [currentRef, fetchStep, go, store]);

  const onSaved = useCallback(
    (ref: number, res: Extract<SaveResponseResult, { ok: true }>) => {
      store.gen++;
      const had = store.steps.get(ref);
      if (had) store.steps.set(ref, { ...had, response: res.response, lexelt: res.lexelt, flag: res.flag, returnComment: null });
      store.returned = res.returned;
      store.lexelts.set(res.lexelt.lexeltId, res.lexelt);
      store.progress = res.progress;
      for (const step of res.upcoming) keepStep(store, step, true);
      markAnswersChanged();
      go(res.next);
    },
    [go, store],
  );

  const onResponse = useCallback(
    (ref: number, response: OwnResponse) => {
      const had = store.steps.get(ref);
      if (had) store.steps.set(ref, { ...had, response });
      rerender();
    },
    [store],
  );

  const onFlag = useCallback(
    (ref: number, flag: FlagNote) => {
      const had = store.steps.get(ref);
      if (had) store.steps.set(ref, { ...had, flag });
      rerender();
    },
    [store],
  );

  const loadTargets = useCallback(() => {
    if (targetsAsked.current) return;
    targetsAsked.current = true;
    workspaceTargetsAction(project.id).then(
      (r) => {
        if (r.ok) setTargets(r.targets);
        else targetsAsked.current = false;
      },
      () => {
        targetsAsked.current = false;
      },
    );
  }, [project.id]);

  // A short list is shown at once; a long one when opened.
  useEffect(() => {
    if (view.fewTargets) loadTargets();
  }, [loadTargets, view.fewTargets]);

  // The browser's back and forward between instances of this page; and a page
  // Next brought back from its cache for another address.
  useEffect(() => {
    const follow = () => {
      const ref = refInPath(project.id, window.location.pathname);
      if (ref !== null) void show(ref, false);
    };
    window.addEventListener("popstate", follow);
    const ref = refInPath(project.id, window.location.pathname);
    if (ref !== null && ref !== view.instance.ref) follow();
    return () => window.removeEventListener("popstate", follow);
  }, [project.id, show, view.instance.ref]);

  const step = store.steps.get(currentRef)!;
  const current = store.lexelts.get(step.lexelt.lexeltId) ?? step.lexelt;
  const shownTargets = targets && targets.map((t) => store.lexelts.get(t.lexeltId) ?? t);
  return (
    <InstancePane
      key={currentRef}
      step={step}
      project={project}
      progress={store.progress}
      current={current}
      userId={userId}
      targets={shownTargets}
      targetCount={view.targetCount}
      fewTargets={view.fewTargets}
      onOpenTargets={loadTargets}
      navigating={navigating}
      go={go}
      skip={() => void skip()}
      onSaved={onSaved}
      onResponse={onResponse}
      returned={store.returned}
      onFlag={onFlag}
    />
  );
}

function Keys() {
  const rows: [string[], string][] = [
    [["Enter"], "Save & next"],
    [["Alt", "N"], "NAME"],
    [["Alt", "L"], "NIL"],
    [["Alt", "M"], "Part of a multiword"],
    [["Alt", "←"], "Previous (or PageUp)"],
    [["Alt", "→"], "Next (or PageDown)"],
    [["Alt", "S"], "Skip"],
    // Alt+G works everywhere; "?" only outside a field (in a field it is a character to type).
    [["Alt", "G"], "Guidelines (or ? outside a field)"],
    [["Alt", "F"], "Flag the item (or F outside a field)"],
  ];
  return (
    <dl className={s.keys}>
      {rows.map(([keys, what]) => (
        <div key={what}>
          <dt>
            {keys.map((k, i) => (
              <span key={k}>
                {i > 0 && "+"}
                <kbd>{k}</kbd>
              </span>
            ))}
          </dt>
          <dd>{what}</dd>
        </div>
      ))}
    </dl>
  );
}

"use client";
import type { FlagNote } from "@/lib/server/annotate";
import type { InstanceStep, LexeltProgress, OwnResponse, Progress, WorkspaceView } from "@/lib/server/annotate";
import { acceptSuggestion } from "./accept-suggestion";
import { AnswerFields } from "./answer-fields";
import { Conflict } from "./conflict";
import { draftKey } from "./draft";
import { FlagNoteField } from "./flag-note";
import { GuidelinesDialog, useGuidelinesDialog } from "./guidelines-dialog";
import { InstanceNav } from "./instance-nav";
import { Sentence } from "./sentence";
import { SidePanel } from "./side-panel";
import { DEFAULT_GUIDELINES } from "./text";
import { useDraft } from "./use-draft";
import { useFields, useFlagNote } from "./use-fields";
import { type Saved, useActiveTime, useSave } from "./use-save";
import { useShortcuts } from "./use-shortcuts";
import { SaveActions } from "./save-actions";
import { offered, PreviousNote, SuggestionsBox } from "./suggestions";
import { type Suggest, useSuggestions } from "./use-suggestions";
import { useEffect } from "react";
import { useScripted } from "@/app/_ui/scripted";
import s from "./workspace.module.css";

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
  onSaved: (ref: number, res: Saved) => void;
  onResponse: (ref: number, response: OwnResponse) => void;
  /** Instances returned to the annotator and still open. */
  returned: { count: number; firstRef: number | null };
  onFlag: (ref: number, flag: FlagNote) => void;
  /** A model's suggestions, when the project shows them to this annotator (use-suggestions.ts). */
  suggest: Suggest | null;
}

/**
 * One instance: the sentence, the form, the neighbours; remounted (keyed by
 * instance) on every move. The draft (use-draft.ts), the fields (use-fields.ts),
 * the save (use-save.ts) and the keys (use-shortcuts.ts) are hooks; this wires
 * them to the components.
 */
export function InstancePane({ step: view, project, progress, current, userId, targets, targetCount, fewTargets, onOpenTargets, navigating, go, skip, onSaved, onResponse, returned, onFlag, suggest }: PaneProps) {
  const { instance } = view;
  const key = draftKey(userId, project.id, instance.ref);
  const draft = useDraft(key, view.response);
  const activeMs = useActiveTime(key);
  const fields = useFields(draft, instance.head);
  const { flagNote, flagNoteRef, flagSelectRef, setFlagNote, toggleFlag } = useFlagNote(view.flag);
  const sugg = useSuggestions(project.id, suggest, instance.ref, [view.nextRef, view.nextUnansweredRef], view.response !== null);
  const { status, saving, conflict, conflictRef, save, keepSaved } = useSave({
    projectId: project.id,
    language: project.language,
    instance,
    draft,
    fields,
    flagNoteRef,
    activeMs,
    onSaved: (ref, res) => {
      sugg.saved(instance.instanceId);
      onSaved(ref, res);
    },
    onResponse,
    suggestions: suggest ? sugg.claim : null,
  });
  /** A suggestion into the answer: NAME / NIL chooses it; a word goes into the next empty field. */
  const accept = (word: string) => {
    sugg.accept(word);
    acceptSuggestion(word, draft, fields);
  };
  const guide = useGuidelinesDialog();
  const scripted = useScripted();
  /** Skip: the next unanswered instance, else simply the next one. */
  const skipTo = view.nextUnansweredRef ?? view.nextRef;
  const base = `/annotate/${project.id}`;

  // On arrival (after a kept draft is restored): focus the first field.
  useEffect(() => {
    fields.focusFirst();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  useShortcuts({
    dialogOpen: guide.isOpen,
    chooseKind: fields.chooseKind,
    toggleMultiword: fields.toggleMultiword,
    skip: skipTo !== null ? skip : null,
    prev: view.prevRef !== null ? () => go(view.prevRef) : null,
    next: view.nextRef !== null ? () => go(view.nextRef) : null,
    openGuidelines: guide.open,
    toggleFlag,
    accept: sugg.visible ? (i: number) => {
      const w = offered(sugg.visible!)[i];
      if (w !== undefined) accept(w);
    } : null,
    revisePrevious: sugg.previous?.item?.state === "ready" ? () => go(sugg.previous!.ref) : null,
  });

  const guidelines = project.guidelines.trim() || DEFAULT_GUIDELINES;

  return (
    <div className={s.layout} aria-busy={navigating || undefined}>
      <section className={`panel ${s.main} ${navigating ? s.loading : ""}`} aria-labelledby="instance-heading">
        <Sentence
          step={view}
          projectId={project.id}
          lang={project.language}
          total={progress.total}
          returned={returned}
          go={go}
          openGuidelines={guide.open}
          restored={draft.restored}
          unsaved={draft.unsaved}
        />

        {conflict && (
          <Conflict
            conflict={conflict}
            saving={saving}
            headingRef={conflictRef}
            keepMine={() => save(conflict.saved.revision)}
            takeSaved={() => keepSaved(conflict.saved)}
          />
        )}

        {suggest && sugg.previous && <PreviousNote model={suggest.model} instanceId={sugg.previous.instanceId} item={sugg.previous.item} revise={() => go(sugg.previous!.ref)} />}
        {/* Answers are saved by the page's script: without it the page says so, and Save stays off until the script runs (before it, a press would send nothing and lose the typing). */}
        <noscript>
          <p className="notice warn">The workspace saves your answers with JavaScript: turn it on in this browser to annotate.</p>
        </noscript>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <AnswerFields draft={draft.draft} fields={fields} save={() => void save()} lang={project.language} />
          {suggest && <SuggestionsBox model={suggest.model} mode={suggest.mode} item={sugg.item} visible={sugg.visible} onAccept={accept} />}

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

          <SaveActions formError={fields.errors.form} saveRef={fields.saveRef} saving={saving} scripted={scripted} status={status} navigating={navigating} />
        </form>

        <InstanceNav step={view} base={base} skipTo={skipTo} go={go} skip={skip} />
      </section>

      <SidePanel
        base={base}
        progress={progress}
        current={current}
        targets={targets}
        targetCount={targetCount}
        fewTargets={fewTargets}
        onOpenTargets={onOpenTargets}
      />

      <GuidelinesDialog guidelines={guidelines} dialogRef={guide.dialogRef} headingRef={guide.headingRef} />
    </div>
  );
}
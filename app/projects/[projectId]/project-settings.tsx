"use client";
/** The overview's "Project" section: rename, the language, archive or bring back, and the way to delete. */
import Link from "next/link";
import { useActionState } from "react";
import type { ProjectFormState } from "./actions";

type ProjectAction = (prev: ProjectFormState, form: FormData) => Promise<ProjectFormState>;

function Result({ state, id }: { state: ProjectFormState; id: string }) {
  if (!state?.message || state.errors?.name || state.errors?.language) return null;
  return (
    <p id={id} role={state.ok ? "status" : "alert"} className={`notice ${state.ok ? "ok" : "error"}`}>
      {state.message}
    </p>
  );
}

/**
 * The actions come bound to the project from the page (a server component): a server action bound
 * here, in the browser's code, would make the server render that answers a form posted without
 * JavaScript suspend for ever (#38, test/bounds/client-binds.test.ts).
 */
export function ProjectSettings({
  projectId,
  name,
  language,
  archivedAt,
  actions,
}: {
  projectId: number;
  name: string;
  language: string;
  archivedAt: string | null;
  actions: { rename: ProjectAction; setLanguage: ProjectAction; archive: ProjectAction };
}) {
  const [renamed, rename, renaming] = useActionState<ProjectFormState, FormData>(actions.rename, null);
  const [languageSet, setLanguage, settingLanguage] = useActionState<ProjectFormState, FormData>(actions.setLanguage, null);
  const langErr = languageSet?.errors?.language;
  const [archived, archive, archiving] = useActionState<ProjectFormState, FormData>(actions.archive, null);
  const nameErr = renamed?.errors?.name;
  return (
    <div className="panel">
      <form action={rename} className="inline">
        <div>
          <label htmlFor="project-rename">Name</label>
          <input
            id="project-rename"
            name="name"
            style={{ width: "min(100%, 28rem)" }}
            required
            defaultValue={name}
            aria-invalid={nameErr ? true : undefined}
            aria-describedby={nameErr ? "project-rename-error" : undefined}
          />
          {nameErr && (
            <div id="project-rename-error" className="field-error">
              {nameErr}
            </div>
          )}
        </div>
        <button type="submit" className="secondary" disabled={renaming}>
          Rename
        </button>
      </form>
      <Result state={renamed} id="project-rename-result" />

      <form action={setLanguage} className="inline" style={{ marginTop: "1rem" }}>
        <div>
          <label htmlFor="project-language">Language</label>
          <input
            id="project-language"
            name="language"
            required
            size={8}
            spellCheck={false}
            autoCapitalize="none"
            defaultValue={language}
            aria-invalid={langErr ? true : undefined}
            aria-describedby={langErr ? "project-language-error" : "project-language-hint"}
          />
          {langErr ? (
            <div id="project-language-error" className="field-error">
              {langErr}
            </div>
          ) : (
            <div id="project-language-hint" className="muted small">
              A BCP 47 tag (en, de, es, pt-BR): the annotators&apos; pages, case and sorting follow it; WordNet proposes lemmas for English only.
            </div>
          )}
        </div>
        <button type="submit" className="secondary" disabled={settingLanguage}>
          Set language
        </button>
      </form>
      <Result state={languageSet} id="project-language-result" />

      <form action={archive} className="inline" style={{ marginTop: "1rem" }}>
        <p className="muted small" style={{ margin: 0, flexBasis: "100%" }}>
          {archivedAt === null
            ? "Archive a finished study: it leaves the annotators' lists and takes no new answers. Everything is kept, and you can bring it back."
            : "Archived: annotators do not see this project and cannot answer in it. Everything is kept."}
        </p>
        <button type="submit" className="secondary" disabled={archiving}>
          {archivedAt === null ? "Archive project" : "Bring back from the archive"}
        </button>
      </form>
      <Result state={archived} id="project-archive-result" />

      <p style={{ marginTop: "1rem", marginBottom: 0 }}>
        <Link href={`/projects/${projectId}/delete`}>Delete project…</Link>{" "}
        <span className="muted small">(asks first, and says what will go)</span>
      </p>
    </div>
  );
}

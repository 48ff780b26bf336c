"use client";
import { useActionState } from "react";
import { createProjectAction, type FormState } from "./actions";

export function CreateProjectForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(createProjectAction, null);
  const err = state?.errors?.name;
  const langErr = state?.errors?.language;
  return (
    <form action={action} className="inline">
      <div>
        <label htmlFor="project-name">Project name</label>
        <input id="project-name" name="name" required aria-invalid={err ? true : undefined} aria-describedby={err ? "project-name-error" : undefined} />
        {err && (
          <div id="project-name-error" className="field-error">
            {err}
          </div>
        )}
      </div>
      <div>
        <label htmlFor="project-language">
          Language <span id="project-language-hint" className="muted small" style={{ fontWeight: 400 }}>(BCP 47: en, de, es, pt-BR…)</span>
        </label>
        <input
          id="project-language"
          name="language"
          defaultValue="en"
          size={8}
          spellCheck={false}
          autoCapitalize="none"
          aria-invalid={langErr ? true : undefined}
          aria-describedby={langErr ? "project-language-error" : "project-language-hint"}
        />
        {langErr && (
          <div id="project-language-error" className="field-error">
            {langErr}
          </div>
        )}
      </div>
      <button type="submit" disabled={pending}>
        Create project
      </button>
      {state && !state.ok && !err && !langErr && state.message && (
        <p role="alert" className="notice error">
          {state.message}
        </p>
      )}
    </form>
  );
}

"use client";
import { useActionState } from "react";
import { createProjectAction, type FormState } from "./actions";

export function CreateProjectForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(createProjectAction, null);
  const err = state?.errors?.name;
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
      <button type="submit" disabled={pending}>
        Create project
      </button>
      {state && !state.ok && !err && state.message && (
        <p role="alert" className="notice error">
          {state.message}
        </p>
      )}
    </form>
  );
}

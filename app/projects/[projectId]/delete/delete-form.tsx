"use client";
import Link from "next/link";
import { useActionState, useState } from "react";
import { useScripted } from "@/app/_ui/scripted";
import type { ProjectFormState } from "../actions";

/**
 * `remove` comes bound to the project from the page (see project-settings.tsx). The button waits for
 * the name only once the page runs its script: without JavaScript it is pressed with whatever was
 * typed, and the server checks the name.
 */
export function DeleteProjectForm({ projectId, name, remove }: { projectId: number; name: string; remove: (prev: ProjectFormState, form: FormData) => Promise<ProjectFormState> }) {
  const [state, action, pending] = useActionState<ProjectFormState, FormData>(remove, null);
  const [typed, setTyped] = useState("");
  const scripted = useScripted();
  const err = state?.errors?.confirm;
  return (
    <form action={action}>
      <label htmlFor="delete-confirm">
        Type the project’s name, <strong>{name}</strong>, to delete it
      </label>
      <input
        id="delete-confirm"
        name="confirm"
        autoComplete="off"
        spellCheck={false}
        style={{ width: "min(100%, 36rem)" }}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        aria-invalid={err ? true : undefined}
        aria-describedby={err ? "delete-confirm-error" : undefined}
      />
      {err && (
        <div id="delete-confirm-error" className="field-error">
          {err}
        </div>
      )}
      <div style={{ display: "flex", gap: "1rem", alignItems: "center", marginTop: "0.75rem" }}>
        <button type="submit" className="danger" disabled={pending || (scripted && typed !== name)}>
          {pending ? "Deleting…" : "Delete this project"}
        </button>
        <Link href={`/projects/${projectId}`}>Cancel</Link>
      </div>
      {state && !state.ok && !err && state.message && (
        <p role="alert" className="notice error">
          {state.message}
        </p>
      )}
    </form>
  );
}

"use client";
import type { RefObject } from "react";
import type { OwnResponse } from "@/lib/server/annotate";
import { type Draft, describe, draftAsResponse } from "./draft";
import s from "./workspace.module.css";

interface ConflictProps {
  conflict: { mine: Draft; saved: OwnResponse };
  saving: boolean;
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** Save this draft over the revision saved elsewhere. */
  keepMine: () => void;
  /** Take the answer saved elsewhere. */
  takeSaved: () => void;
}

/** Another tab or window saved this instance after it was opened: both answers, and which should stay. */
export function Conflict({ conflict, saving, headingRef, keepMine, takeSaved }: ConflictProps) {
  return (
    <section className={`notice warn ${s.conflict}`} aria-labelledby="conflict-heading">
      <h2 id="conflict-heading" tabIndex={-1} ref={headingRef}>
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
        <button type="button" disabled={saving} onClick={keepMine}>
          Keep mine
        </button>
        <button type="button" className="secondary" disabled={saving} onClick={takeSaved}>
          Use saved
        </button>
      </div>
    </section>
  );
}

"use client";
import { type ReactNode, useEffect, useRef } from "react";
import s from "./workspace.module.css";

/** Where the layout is one column (workspace.module.css), the Keys panel starts collapsed. */
const NARROW = "(max-width: 56rem)";

/** The workspace's Keys panel: open beside the instance on a wide screen, a one-line summary below it on a narrow one. */
export function KeysPanel({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const mq = window.matchMedia(NARROW);
    if (ref.current && mq.matches) ref.current.open = false;
    // Turning a tablet or narrowing the window folds it too (widening leaves it as the annotator set it).
    const fold = (e: MediaQueryListEvent) => {
      if (e.matches && ref.current) ref.current.open = false;
    };
    mq.addEventListener("change", fold);
    return () => mq.removeEventListener("change", fold);
  }, []);
  return (
    <details ref={ref} className={`panel ${s.keysPanel}`} open>
      <summary>
        <h2 className={s.sideHeading}>Keys</h2>
      </summary>
      {children}
    </details>
  );
}

/** The keys of the workspace (docs/guide.md, "Annotating"): beside the instance and in the guidelines. */
export function Keys() {
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

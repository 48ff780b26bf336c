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

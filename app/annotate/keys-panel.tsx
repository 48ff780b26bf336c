"use client";
import { type ReactNode, useEffect, useRef } from "react";
import s from "./workspace.module.css";

/** Where the layout is one column (workspace.module.css), the Keys panel starts collapsed. */
const NARROW = "(max-width: 56rem)";

/** The workspace's Keys panel: open beside the instance on a wide screen, a one-line summary below it on a narrow one. */
export function KeysPanel({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (ref.current && window.matchMedia(NARROW).matches) ref.current.open = false;
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

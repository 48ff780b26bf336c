"use client";
import Form from "next/form";
import { type ReactNode, useEffect, useRef } from "react";
import styles from "./gold.module.css";

/**
 * A filter form that navigates with its fields as the URL's query (so a filtered
 * view can be linked and reloaded): on Enter or the Filter button, at once when a
 * box or a choice changes, and shortly after typing stops.
 */
export function FilterForm({ action, view, children, label }: { action: string; view: string; children: ReactNode; label: string }) {
  const ref = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const submitSoon = (ms: number) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => ref.current?.requestSubmit(), ms);
  };
  return (
    <Form
      ref={ref}
      action={action}
      replace
      scroll={false}
      className={styles.filters}
      aria-label={label}
      role="search"
      onChange={(e) => {
        const t = e.target as unknown as HTMLInputElement;
        submitSoon(t.type === "text" || t.type === "search" ? 350 : 0);
      }}
      onSubmit={() => {
        if (timer.current) clearTimeout(timer.current);
      }}
    >
      <input type="hidden" name="view" value={view} />
      {children}
      <button type="submit" className={`secondary ${styles.mini}`}>
        Filter
      </button>
    </Form>
  );
}

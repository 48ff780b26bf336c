"use client";
import Link from "next/link";
import type { LexeltProgress, Progress } from "@/lib/server/annotate";
import { Keys, KeysPanel } from "./keys-panel";
import { Bar } from "./progress-bar";
import s from "./workspace.module.css";

interface SidePanelProps {
  base: string;
  progress: Progress;
  /** The freshest counts of the instance's lexelt. */
  current: LexeltProgress;
  targets: LexeltProgress[] | null;
  targetCount: number;
  fewTargets: boolean;
  onOpenTargets: () => void;
}

const pct = (done: number, total: number) => (total > 0 ? `${Math.round((done / total) * 100)}%` : "0%");

/** Beside the instance: progress overall and on this target, every target (loaded when opened, at once when few), the keys. */
export function SidePanel({ base, progress, current, targets, targetCount, fewTargets, onOpenTargets }: SidePanelProps) {
  return (
    <aside className={s.side} aria-label="Progress and keys">
      <section className="panel">
        <h2 className={s.sideHeading}>Progress</h2>
        <Bar label="Overall progress" done={progress.done} total={progress.total} />
        <p className={s.count}>
          <strong>{progress.done}</strong> of {progress.total} done
        </p>
        <Bar label={`Progress on ${current.label}`} done={current.done} total={current.total} small />
        <p className="small muted">
          {current.label}: {current.done} of {current.total}
        </p>
        <details
          className={s.lexelts}
          open={fewTargets}
          onToggle={(e) => {
            if ((e.currentTarget as HTMLDetailsElement).open) onOpenTargets();
          }}
        >
          <summary>All targets{targets ? ` (${targets.length})` : fewTargets ? ` (${targetCount})` : ""}</summary>
          {targets === null && <p className="small muted">Loading…</p>}
          <ul className="plain">
            {(targets ?? []).map((l) => (
              <li key={l.lexeltId} aria-current={l.lexeltId === current.lexeltId ? "true" : undefined}>
                <Link href={`${base}?lexelt=${l.lexeltId}`} prefetch={false}>
                  {l.label}
                </Link>
                <span className={s.mini} aria-hidden="true">
                  <span style={{ width: pct(l.done, l.total) }} />
                </span>
                <span className="small muted">
                  {l.done}/{l.total}
                </span>
              </li>
            ))}
          </ul>
        </details>
      </section>
      <KeysPanel>
        <Keys />
      </KeysPanel>
    </aside>
  );
}

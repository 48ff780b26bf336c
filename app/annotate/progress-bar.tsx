import s from "./workspace.module.css";

/** A calm progress bar that screen readers read as "12 of 40 done". */
export function Bar({ label, done, total, small }: { label: string; done: number; total: number; small?: boolean }) {
  const pct = total > 0 ? (done / total) * 100 : 0;
  return (
    <div
      className={`${s.bar} ${small ? s.barSmall : ""}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={done}
      aria-valuetext={`${done} of ${total} done`}
    >
      <span style={{ width: `${pct}%` }} />
    </div>
  );
}

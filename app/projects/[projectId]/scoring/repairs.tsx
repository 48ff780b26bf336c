"use client";
import type { RepairChange } from "@/lib/scorers/semeval2007/repairs";
import { exact, pct } from "./format";
import styles from "./scoring.module.css";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "t-fields: 35 items, pn: 4 items". */
function changesLine(changes: RepairChange[]): string {
  return changes.map((c) => `${c.rule}: ${plural(c.items, "item")}`).join(", ");
}

/**
 * The repaired figure after an official one, small and muted ("(repaired 21.32)"),
 * only when the printed figures differ.
 */
export function RepairedFigure({ official, repaired }: { official: number | null; repaired: number | null }) {
  if (pct(official) === pct(repaired)) return null;
  return (
    <span className={styles.repairedFigure} title={`repaired: ${exact(repaired)}`}>
      {" "}
      (repaired {pct(repaired)})
    </span>
  );
}

/**
 * Under a run's name: which repairs change its figures and how many items
 * each; opened, what score.pl does and what the repair does instead.
 */
export function RepairNote({ changes, onItem }: { changes: RepairChange[]; onItem?: (id: string) => void }) {
  if (changes.length === 0) return null;
  return (
    <details className={styles.repairNote}>
      <summary>Repairs differ · {changesLine(changes)}</summary>
      <RepairList changes={changes} onItem={onItem} />
    </details>
  );
}

/** Each rule: its two readings and the first few item ids (buttons when `onItem` can show them). */
export function RepairList({ changes, onItem, known }: { changes: RepairChange[]; onItem?: (id: string) => void; known?: ReadonlySet<string> }) {
  return (
    <dl className={styles.repairList}>
      {changes.map((c) => (
        <div key={c.rule}>
          <dt>
            <code>{c.rule}</code>
          </dt>
          <dd>
            <span className="muted">score.pl:</span> {c.official}. <span className="muted">Repaired:</span> {c.repaired}.{" "}
            <span className="muted">
              {plural(c.items, "item")}
              {": "}
            </span>
            {c.ids.map((id, i) => (
              <span key={id}>
                {i > 0 && ", "}
                {onItem && (!known || known.has(id)) ? (
                  <button type="button" className={styles.idLink} onClick={() => onItem(id)} aria-label={`Show item ${id}`}>
                    {id}
                  </button>
                ) : (
                  id
                )}
              </span>
            ))}
            {c.items > c.ids.length && ", …"}
          </dd>
        </div>
      ))}
    </dl>
  );
}

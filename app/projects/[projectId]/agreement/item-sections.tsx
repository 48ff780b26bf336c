/** The Agreement page's lowest-agreement items, each with its answers, and the heatmap of pairs of annotators. */
import Link from "next/link";
import type { AgreementPageView, LowItem } from "@/lib/server/gold";
import { plural } from "@/app/_ui/format";
import { ChartFigure } from "@/app/_ui/charts/chart-figure";
import { pairAgreementHeatmap } from "@/lib/charts/agreement";
import styles from "./agreement.module.css";
import { pct } from "./format";

function Answer({ a }: { a: LowItem["responses"][number] }) {
  if (a.kind === "NAME") return <span className="tag">NAME</span>;
  if (a.kind === "NIL") return <span className="tag">NIL</span>;
  if (a.substitutes.length === 0) return <span className="muted">(nothing usable)</span>;
  return <>{a.substitutes.join(", ")}</>;
}

export function LowestItem({ it, projectId }: { it: LowItem; projectId: number }) {
  const headingId = `low-${it.lexelt}-${it.instanceId}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const gold = `/projects/${projectId}/gold?${new URLSearchParams({ view: "instances", lexelt: it.originalLexelt, instance: it.instanceId })}#${encodeURIComponent(`inst-${it.instanceId}`)}`;
  return (
    <li>
      <article className={`panel ${styles.lowItem}`} aria-labelledby={headingId}>
      <div className={styles.lowHead}>
        <h3 id={headingId}>
          <code>{it.lexelt}</code> {it.instanceId}
        </h3>
        <span className={styles.lowFigure}>
          {pct(it.pairwise)} <span className="muted small">over {plural(it.pairs, "pair")}</span>
        </span>
      </div>
      <div className="muted small">
        Mode: {it.mode ?? "none"}
        {it.modeAgreement !== null && <> ({pct(it.modeAgreement)} gave it)</>}
      </div>
      <div className={styles.scrollX}>
      <table className={styles.answers}>
        <caption className={styles.srOnly}>Answers to {it.lexelt} {it.instanceId}</caption>
        <thead>
          <tr>
            <th scope="col">Annotator</th>
            <th scope="col">Substitutes</th>
            <th scope="col">Multiword</th>
          </tr>
        </thead>
        <tbody>
          {it.responses.map((a) => (
            <tr key={a.annotator}>
              <th scope="row" className={styles.rowHead}>{a.annotator}</th>
              <td>
                <Answer a={a} />
              </td>
              <td>{a.multiword ?? <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      <Link href={gold} className="small">
        Review {it.lexelt} {it.instanceId} on the Gold page
      </Link>
      </article>
    </li>
  );
}

/** Pairwise agreement of each pair of annotators, as a heatmap (lib/charts/agreement.ts). */
export function PairsSection({ pairs }: { pairs: AgreementPageView["pairs"] }) {
  const chart = pairAgreementHeatmap(pairs.pairs, "pairs", undefined, pairs.annotators);
  if (!chart) return null;
  return (
    <section aria-labelledby="pairs-heading">
      <h2 id="pairs-heading">Agreement between pairs of annotators</h2>
      <p className="muted small">
        Each cell: the two annotators&apos; mean pairwise agreement over the items in T where both gave substitutes; computed with α, as of its time.
      </p>
      <ChartFigure chart={chart} />
    </section>
  );
}

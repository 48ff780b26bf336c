/** The Agreement page's headline: the six figures, each defined in plain words, and when α was computed (or that it is being computed: the page never waits for it, #39). */
import type { ReactNode } from "react";
import type { AgreementFigures, Interval } from "@/lib/lexsub/agreement";
import type { AgreementPageView } from "@/lib/server/gold";
import { int, plural } from "@/app/_ui/format";
import { recomputeAlphaAction } from "./actions";
import { FollowFigures } from "@/app/_ui/follow-figures";
import styles from "./agreement.module.css";
import { DASH, alpha, pct } from "./format";

type AgreementReport = AgreementPageView["report"];

// Plain-language definitions, shown on hover (title) and under "What is this?".
export const DEFINE = {
  items:
    "T is the set of instances where the annotators together gave at least two substitutes (|H| ≥ 2). NAME and NIL answers are not substitutes, and excluded instances are left out. The substitute figures on this page are computed over T.",
  itemsWithMode:
    "Items in T where one substitute was given more often than every other: the mode. Agreement with the mode is measured on these items only; items whose top substitutes tie have no mode.",
  pairwise:
    "For each item in T, take every pair of annotators who both gave substitutes and divide the substitutes they share by all the substitutes either of them gave (|A ∩ B| / |A ∪ B|). The figure is the mean over all those pairs.",
  modeAgreement:
    "Of the answers with substitutes on items that have a mode, the share that include the mode.",
  mwDetection:
    "For every instance (not excluded) and every pair of annotators who both answered it: the share of pairs who agree on whether the target is part of a multiword — both marked one, or neither did.",
  mwIdentification:
    "For every pair of annotators who both marked the target as part of a multiword: the share who gave the same phrase (after normalising case, spacing and lemmas).",
  alphaMasi:
    "Agreement corrected for chance, over the substitute sets of items in T: Krippendorff's α with the MASI distance between two sets (Passonneau 2006), as NLTK computes it. 1 is perfect agreement, 0 is what chance alone would give, below 0 is worse than chance.",
  interval:
    "A 95% bootstrap interval: the items of T are resampled with replacement 1,000 times (seed 1) and the middle 95% of the recomputed figures is shown.",
} as const;

function Figure({
  label,
  value,
  exact,
  define,
  interval,
  basis,
  reason,
  testId,
}: {
  label: string;
  value: string;
  exact?: number | null;
  define: string;
  interval?: ReactNode;
  basis: ReactNode;
  /** Why the figure is undefined (shown when value is "—"). */
  reason?: string;
  testId: string;
}) {
  const undefinedFigure = value === DASH;
  return (
    <section className={`panel ${styles.figure}`} aria-label={label} data-testid={testId}>
      <h3 className={styles.figureLabel} title={define}>
        {label}
      </h3>
      <div className={styles.big} data-value={exact === undefined || exact === null ? "" : String(exact)} title={exact === undefined || exact === null ? undefined : String(exact)}>
        {value}
      </div>
      {undefinedFigure && reason && <p className={styles.reason}>{reason}</p>}
      {interval && <div className={styles.interval}>{interval}</div>}
      <div className="muted small">{basis}</div>
      <details className={styles.define}>
        <summary>What is this?</summary>
        <p>{define}</p>
      </details>
    </section>
  );
}

function IntervalText({ iv, format, iterations }: { iv: Interval | null; format: (x: number) => string; iterations: number }) {
  if (!iv) return null;
  return (
    <span title={DEFINE.interval}>
      95% interval {format(iv.low)} – {format(iv.high)}
      <span className="muted"> ({int(iterations)} resamples)</span>
    </span>
  );
}

/** Why a figure is undefined, in the reader's terms. */
function reasons(f: AgreementFigures) {
  return {
    pairwise:
      f.items === 0
        ? "No instance has at least two substitutes yet, so T is empty."
        : "No item in T has two annotators who both gave substitutes.",
    modeAgreement: f.items === 0 ? "T is empty." : "No item in T has a single most frequent substitute.",
    mwDetection: "No instance has answers from two annotators yet.",
    mwIdentification: "No two annotators both marked a multiword on the same instance.",
    alphaMasi:
      f.items === 0
        ? "T is empty: there are no substitute sets to compare."
        : "Too little to compare: α needs sets from at least two annotators on some item.",
  };
}

function Headline({ r, d }: { r: AgreementReport; d: AgreementPageView }) {
  const why = reasons(r);
  const it = r.intervals;
  return (
    <div className={styles.figures}>
      <Figure
        testId="figure-items"
        label="Items compared (|T|)"
        value={int(r.items)}
        exact={r.items}
        define={`${DEFINE.items} ${DEFINE.itemsWithMode}`}
        interval={
          <span title={DEFINE.itemsWithMode}>
            {int(r.itemsWithMode)} with a mode{r.items > 0 && <span className="muted"> ({pct(r.itemsWithMode / r.items)})</span>}
          </span>
        }
        basis={
          <>
            of {plural(d.summary.instances - d.summary.excluded, "instance")} in the gold
            {d.summary.excluded > 0 && <> ({int(d.summary.excluded)} excluded)</>}
          </>
        }
      />
      <Figure
        testId="figure-pairwise"
        label="Pairwise agreement"
        value={pct(r.pairwise)}
        exact={r.pairwise}
        reason={why.pairwise}
        define={DEFINE.pairwise}
        interval={<IntervalText iv={it.pairwise} format={pct} iterations={it.iterations} />}
        basis={<>over {plural(r.pairs, "pair")} of annotators</>}
      />
      <Figure
        testId="figure-mode"
        label="Agreement with the mode"
        value={pct(r.modeAgreement)}
        exact={r.modeAgreement}
        reason={why.modeAgreement}
        define={DEFINE.modeAgreement}
        basis={<>over {plural(r.modeResponses, "answer")} on {plural(r.itemsWithMode, "item")} with a mode</>}
      />
      <Figure
        testId="figure-mw-detection"
        label="Multiword detection"
        value={pct(r.mwDetection)}
        exact={r.mwDetection}
        reason={why.mwDetection}
        define={DEFINE.mwDetection}
        basis={<>over {plural(r.mwDetectionPairs, "pair")} on {plural(r.mwInstances, "instance")}</>}
      />
      <Figure
        testId="figure-mw-identification"
        label="Multiword identification"
        value={pct(r.mwIdentification)}
        exact={r.mwIdentification}
        reason={why.mwIdentification}
        define={DEFINE.mwIdentification}
        basis={<>over {plural(r.mwIdentificationPairs, "pair")} who both marked one</>}
      />
      <Figure
        testId="figure-alpha"
        label="Krippendorff's α (MASI)"
        value={alpha(r.alphaMasi)}
        exact={r.alphaMasi}
        reason={d.alpha.computedAt === null ? "Not computed yet: it is being computed now, in the background." : why.alphaMasi}
        define={DEFINE.alphaMasi}
        interval={<IntervalText iv={it.alphaMasi} format={alpha} iterations={it.iterations} />}
        basis={<>chance-corrected, from the sets behind the {plural(r.pairs, "pair")}</>}
      />
    </div>
  );
}

/** A time of day, HH:MM:SS (the server's clock), with the date when not today. */
function asOf(d: Date): string {
  const time = d.toTimeString().slice(0, 8);
  return d.toDateString() === new Date().toDateString() ? time : `${d.toISOString().slice(0, 10)} ${time}`;
}

/** The figures, how they are rounded, and when α and the intervals were computed (with the button to compute them again). */
export function HeadlineSection({ d, projectId, computing }: { d: AgreementPageView; projectId: number; computing: boolean }) {
  const id = projectId;
  return (
    <section aria-labelledby="headline-heading">
      <h2 id="headline-heading">The figures</h2>
      <Headline r={d.report} d={d} />
      <p className="muted small">
        Percentages are rounded to one decimal; hover over a figure for its exact value. — marks a figure that cannot be computed yet, with the
        reason. Every figure follows the answers as they are saved
        {d.queued > 0 && <> ({plural(d.queued, "instance")} still being brought up to date after a change)</>}; α and the 95% intervals are
        computed over every item at once, in the background:{" "}
        {d.alpha.computedAt === null ? (
          <span>not computed yet — computing now; the page shows them when they are ready (without JavaScript: reload in a moment).</span>
        ) : (
          <>
            as of <span data-testid="alpha-as-of">{asOf(d.alpha.computedAt)}</span>
            {d.alpha.stale ? (computing ? ", and answers have changed since: computing them again now." : ", and answers have changed since.") : ", and nothing has changed since."}
          </>
        )}
      </p>
      <FollowFigures computing={computing} />
      {d.alpha.stale && (
        <form action={recomputeAlphaAction.bind(null, id)} className={styles.recompute}>
          <button type="submit" className="secondary">
            Recompute α and the intervals
          </button>
        </form>
      )}
    </section>
  );
}

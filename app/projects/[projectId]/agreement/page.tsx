import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import type { AgreementFigures, AnnotatorAgreement, Interval } from "@/lib/lexsub/agreement";

type AgreementReport = AgreementPageView["report"];
type AgreementPageData = AgreementPageView;
import { type AgreementPageView, agreementPageView } from "@/lib/server/gold";
import { catchUpFigures } from "@/lib/server/derived";
import { refreshAgreementAlpha } from "@/lib/server/jobs";
import { NotFoundError } from "@/lib/server/kernel";
import { recomputeAlphaAction } from "./actions";
import { FollowMeasures } from "./models-follow";
import styles from "./agreement.module.css";
import { int, plural } from "@/app/_ui/format";
import { DASH, alpha, dec, pct, points } from "./format";
import { ChartFigure } from "@/app/_ui/charts/chart-figure";
import { itemAgreementHistogram } from "@/lib/charts/agreement";
import { ModelsSection } from "./models-section";
import { LowestItem, PairsSection } from "./item-sections";
import { type Column, type Row, SortableTable } from "./sortable-table";

export const metadata: Metadata = { title: "Agreement" };
export const dynamic = "force-dynamic";

const POS_NAMES: Record<string, string> = { n: "nouns", v: "verbs", a: "adjectives", r: "adverbs", "": "unknown PoS" };

/** α and the intervals are computed again in the background when a page finds them this much older than a change. */
const ALPHA_AUTO_MS = 10 * 60_000;

/** Differences smaller than this are rounding noise, not a rise. */
const EPS = 1e-9;

// Plain-language definitions, shown on hover (title) and under "What is this?".
const DEFINE = {
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

function Headline({ r, d }: { r: AgreementReport; d: AgreementPageData }) {
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
        reason={why.alphaMasi}
        define={DEFINE.alphaMasi}
        interval={<IntervalText iv={it.alphaMasi} format={alpha} iterations={it.iterations} />}
        basis={<>chance-corrected, from the sets behind the {plural(r.pairs, "pair")}</>}
      />
    </div>
  );
}

/** Did leaving this annotator out raise the overall figure? */
function raises(without: number | null, overall: number | null): boolean {
  return without !== null && overall !== null && without > overall + EPS;
}

function Delta({ without, overall }: { without: number | null; overall: number | null }) {
  if (without === null || overall === null) return null;
  const d = without - overall;
  const cls = d > EPS ? styles.up : d < -EPS ? styles.down : "muted";
  return <div className={`small ${cls}`}>{points(d)}</div>;
}

function AnnotatorTable({ r }: { r: AgreementReport }) {
  const raisers = r.perAnnotator.filter((a) => raises(a.without.pairwise, r.pairwise) || raises(a.without.modeAgreement, r.modeAgreement));
  return (
    <>
      {raisers.length > 0 && (
        <p className="notice warn">
          Agreement rises without{" "}
          {raisers.map((a, k) => (
            <span key={a.annotator}>
              {k > 0 && (k === raisers.length - 1 ? " and " : ", ")}
              <strong>{a.annotator}</strong>
            </span>
          ))}
          : the row{raisers.length === 1 ? " is" : "s are"} marked below. Worth a look at their answers (or the guidelines): it is a
          prompt, not proof of a poor annotator.
        </p>
      )}
      <div className="table-wrap">
        <table aria-labelledby="annotators-heading" className={styles.annotators}>
          <thead>
            <tr>
              <th scope="col" rowSpan={2}>Annotator</th>
              <th scope="col" rowSpan={2} className="num" title="Instances (not excluded) the annotator answered">Answered</th>
              <th scope="col" rowSpan={2} className="num" title="Answers of NAME (the target is part of a proper name)">NAME</th>
              <th scope="col" rowSpan={2} className="num" title="Answers of NIL (no substitute fits)">NIL</th>
              <th scope="col" rowSpan={2} className="num" title="Mean number of substitutes over the answers that gave substitutes">Mean subs.</th>
              <th scope="col" rowSpan={2} className="num" title="Answers that marked the target as part of a multiword">Multi&shy;words</th>
              <th scope="col" rowSpan={2} className="num" title="Items in T where the annotator gave substitutes">Items in T</th>
              <th scope="col" rowSpan={2} className="num" title="Mean pairwise agreement over this annotator's pairs with the others">Pairwise</th>
              <th scope="col" rowSpan={2} className="num" title="Share of this annotator's answers on items with a mode that include the mode">With mode</th>
              <th scope="colgroup" colSpan={3} className={styles.withoutHead} title="The overall figures recomputed with this annotator's answers left out (T and the modes too)">
                Overall, without them
              </th>
            </tr>
            <tr>
              <th scope="col" className={`num ${styles.withoutCol}`} title="Items in T without this annotator">|T|</th>
              <th scope="col" className="num" title="Overall pairwise agreement without this annotator; the change from the overall figure below it">Pairwise</th>
              <th scope="col" className="num" title="Overall agreement with the mode without this annotator; the change below it">Mode</th>
            </tr>
          </thead>
          <tbody>
            {r.perAnnotator.map((a) => (
              <AnnotatorRow key={a.annotator} a={a} r={r} />
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className={`${styles.rowHead} ${styles.total}`}>All annotators</th>
              <td className={`num ${styles.total}`}>{int(r.perAnnotator.reduce((s, a) => s + a.answered, 0))}</td>
              <td className={`num ${styles.total}`}>{int(r.perAnnotator.reduce((s, a) => s + a.names, 0))}</td>
              <td className={`num ${styles.total}`}>{int(r.perAnnotator.reduce((s, a) => s + a.nils, 0))}</td>
              <td className={`num ${styles.total}`} />
              <td className={`num ${styles.total}`}>{int(r.perAnnotator.reduce((s, a) => s + a.multiwords, 0))}</td>
              <td className={`num ${styles.total}`}>{int(r.items)}</td>
              <td className={`num ${styles.total}`}>{pct(r.pairwise)}</td>
              <td className={`num ${styles.total}`}>{pct(r.modeAgreement)}</td>
              <td className={`num ${styles.total} ${styles.withoutCol}`} colSpan={3}>
                <span className="muted small">overall figures</span>
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </>
  );
}

function AnnotatorRow({ a, r }: { a: AnnotatorAgreement; r: AgreementReport }) {
  const up = raises(a.without.pairwise, r.pairwise) || raises(a.without.modeAgreement, r.modeAgreement);
  return (
    <tr className={up ? styles.raises : undefined} data-annotator={a.annotator}>
      <th scope="row" className={styles.rowHead}>
        {a.annotator}
        {up && <div className={`${styles.flag} ${styles.up}`}>agreement rises without them</div>}
      </th>
      <td className="num">{int(a.answered)}</td>
      <td className="num">{int(a.names)}</td>
      <td className="num">{int(a.nils)}</td>
      <td className="num">{dec(a.meanSubstitutes)}</td>
      <td className="num">{int(a.multiwords)}</td>
      <td className="num">{int(a.items)}</td>
      <td className={`num ${styles.barCell}`} title={`over ${plural(a.pairs, "pair")}`}>
        {pct(a.pairwise)}
        <Bar value={a.pairwise} />
      </td>
      <td className={`num ${styles.barCell}`} title={`over ${plural(a.modeResponses, "answer")}`}>
        {pct(a.modeAgreement)}
        <Bar value={a.modeAgreement} />
      </td>
      <td className={`num ${styles.withoutCol}`}>{int(a.without.items)}</td>
      <td className="num" title={`over ${plural(a.without.pairs, "pair")}`}>
        {pct(a.without.pairwise)}
        <Delta without={a.without.pairwise} overall={r.pairwise} />
      </td>
      <td className="num" title={`over ${plural(a.without.modeResponses, "answer")}`}>
        {pct(a.without.modeAgreement)}
        <Delta without={a.without.modeAgreement} overall={r.modeAgreement} />
      </td>
    </tr>
  );
}

function Bar({ value }: { value: number | null }) {
  if (value === null) return null;
  return (
    <span className={styles.cellBar} aria-hidden="true">
      <span style={{ width: `${Math.max(0, Math.min(1, value)) * 100}%` }} />
    </span>
  );
}

const FIGURE_COLUMNS: Column[] = [
  { key: "items", label: "|T|", kind: "int", title: "Items in T" },
  { key: "itemsWithMode", label: "With mode", kind: "int", title: "Items in T with a mode" },
  { key: "pairs", label: "Pairs", kind: "int", title: "Pairs of annotators who both gave substitutes" },
  { key: "pairwise", label: "Pairwise", kind: "pct", bar: true, title: DEFINE.pairwise },
  { key: "modeAgreement", label: "Mode", kind: "pct", bar: true, title: DEFINE.modeAgreement },
  { key: "mwDetection", label: "MW detection", kind: "pct", title: DEFINE.mwDetection },
  { key: "mwIdentification", label: "MW identification", kind: "pct", title: DEFINE.mwIdentification },
  { key: "alphaMasi", label: "α (MASI)", kind: "alpha", title: DEFINE.alphaMasi },
];

const LEXELT_COLUMNS: Column[] = [{ key: "lexelt", label: "Lexelt", kind: "text", rowHeader: true, code: true }, { key: "pos", label: "PoS", kind: "text" }, ...FIGURE_COLUMNS];

function figureRow(f: AgreementFigures): Row {
  return {
    items: f.items,
    itemsWithMode: f.itemsWithMode,
    pairs: f.pairs,
    pairwise: f.pairwise,
    modeAgreement: f.modeAgreement,
    mwDetection: f.mwDetection,
    mwIdentification: f.mwIdentification,
    alphaMasi: f.alphaMasi,
  };
}

type Search = Record<string, string | string[] | undefined>;

/** A time of day, HH:MM:SS (the server's clock), with the date when not today. */
function asOf(d: Date): string {
  const time = d.toTimeString().slice(0, 8);
  return d.toDateString() === new Date().toDateString() ? time : `${d.toISOString().slice(0, 10)} ${time}`;
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export default async function AgreementPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const sp = await searchParams;
  const id = Number(projectId);
  let d: AgreementPageData;
  let computing = false;
  try {
    // The figures kept as answers change (#39); α and the intervals from their last computation in the background.
    const db = getDb();
    await catchUpFigures(db, actor, id);
    const view = () => agreementPageView(db, actor, id, { q: one(sp.q), sort: one(sp.sort), dir: one(sp.dir), page: one(sp.page) });
    d = view();
    // Never computed, or stale for long: computed again in the background (the button asks at once).
    const age = d.alpha.computedAt === null ? Infinity : Date.now() - d.alpha.computedAt.getTime();
    // The page never waits for it (#39): it says they are being computed and, with JavaScript, looks again until they are.
    if (d.alpha.computedAt === null || (d.alpha.stale && age > ALPHA_AUTO_MS)) {
      computing = true;
      refreshAgreementAlpha(db, actor, id).catch((e) => console.error("lexgold: computing α failed:", e));
    }
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const r = d.report;
  const download = `/api/projects/${id}/agreement`;
  const withPairs = d.itemsWithPairs;
  const lx = d.lexelts;
  const lexeltHref = (change: { sort?: string; dir?: string; page?: number; q?: string }) => {
    const u = new URLSearchParams();
    const q = change.q ?? lx.q;
    if (q) u.set("q", q);
    u.set("sort", change.sort ?? lx.sort);
    u.set("dir", change.dir ?? lx.dir);
    if ((change.page ?? 1) > 1) u.set("page", String(change.page));
    return `?${u.toString()}#lexelt-heading`;
  };

  return (
    <>
      <h1>Agreement</h1>
      <p className="muted">
        {d.project.name} · how far the annotators agree, from the responses through the lemma review, exclusions and PoS corrections on the Gold tab
      </p>

      <div className={styles.downloads}>
        <a className="button" href={`${download}?format=json`} download>
          Download report (JSON)
        </a>
        <a className="button secondary" href={`${download}?format=csv&table=items`} download>
          Per item (CSV)
        </a>
        <a className="button secondary" href={`${download}?format=csv&table=annotators`} download>
          Per annotator (CSV)
        </a>
        <a className="button secondary" href={`${download}?format=csv&table=lexelts`} download>
          Per lexelt (CSV)
        </a>
      </div>

      {r.items === 0 && (
        <p className="notice warn">
          Nothing to compare yet: agreement needs instances where annotators gave at least two substitutes between them. Responses come from the
          annotators&rsquo; workspace or a TSV import on the Team tab.
        </p>
      )}

      <section aria-labelledby="headline-heading">
        <h2 id="headline-heading">The figures</h2>
        <Headline r={r} d={d} />
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
        <FollowMeasures computing={computing} />
        {d.alpha.stale && (
          <form action={recomputeAlphaAction.bind(null, id)} className={styles.recompute}>
            <button type="submit" className="secondary">
              Recompute α and the intervals
            </button>
          </form>
        )}
      </section>

      <section aria-labelledby="annotators-heading">
        <h2 id="annotators-heading">Per annotator</h2>
        {r.perAnnotator.length === 0 ? (
          <p className="muted">No answers yet.</p>
        ) : (
          <>
            <p className="muted small">
              Each annotator&rsquo;s own answers and agreement with the others, and the overall figures recomputed without them (items in T and
              modes recomputed too), with the change in percentage points.
            </p>
            <AnnotatorTable r={r} />
          </>
        )}
      </section>

      <section aria-labelledby="distribution-heading">
        <h2 id="distribution-heading">Distribution of per-item agreement</h2>
        {withPairs === 0 ? (
          <p className="muted">No item has a pair of annotators who both gave substitutes yet.</p>
        ) : (
          <>
            <p className="muted small">
              How many of the {plural(withPairs, "item")} with at least one pair fall in each band of pairwise agreement (the last band includes
              100%).
            </p>
            <ChartFigure chart={itemAgreementHistogram(r.histogram, r.pairwise, "histogram")} />
          </>
        )}
      </section>

      <PairsSection pairs={d.pairs} />

      <section aria-labelledby="pos-heading">
        <h2 id="pos-heading">By part of speech</h2>
        {r.byPos.length === 0 ? (
          <p className="muted">No instances yet.</p>
        ) : (
          <SortableTable
            labelledBy="pos-heading"
            rowKey="pos"
            columns={[{ key: "pos", label: "PoS", kind: "text", rowHeader: true }, ...FIGURE_COLUMNS]}
            rows={r.byPos.map((p) => ({ ...figureRow(p), pos: `${POS_NAMES[p.pos] ?? p.pos}${p.pos ? ` (${p.pos})` : ""}` }))}
            footer={{ ...figureRow(r), pos: "All" }}
          />
        )}
      </section>

      <section aria-labelledby="lexelt-heading">
        <h2 id="lexelt-heading">By lexelt</h2>
        {lx.all === 0 ? (
          <p className="muted">No instances yet.</p>
        ) : (
          <>
            <form method="get" action="#lexelt-heading" className={styles.search} role="search" aria-label="Lexelts">
              <label>
                Find a lexelt <input type="search" name="q" defaultValue={lx.q} placeholder="e.g. bright" />
              </label>
              <input type="hidden" name="sort" value={lx.sort} />
              <input type="hidden" name="dir" value={lx.dir} />
              <button type="submit" className="secondary">Search</button>
              {lx.q && <Link href={lexeltHref({ q: "", page: 1 })}>Show all</Link>}
            </form>
            <p className="muted small">Click a column heading to sort every lexelt by it; click again to reverse. — where a lexelt has nothing to compare.</p>
            {lx.total === 0 ? (
              <p className="muted">No lexelt matches &ldquo;{lx.q}&rdquo;.</p>
            ) : (
              <SortableTable
                labelledBy="lexelt-heading"
                rowKey="lexelt"
                columns={LEXELT_COLUMNS}
                rows={lx.rows.map((l) => ({ ...figureRow(l), lexelt: l.lexelt, pos: l.pos }))}
                server={{
                  sort: lx.sort,
                  dir: lx.dir,
                  sortHrefs: Object.fromEntries(
                    LEXELT_COLUMNS.map((c) => [
                      c.key,
                      lexeltHref({ sort: c.key, dir: lx.sort === c.key ? (lx.dir === "asc" ? "desc" : "asc") : c.kind === "text" ? "asc" : "desc" }),
                    ]),
                  ),
                  previous: lx.page > 1 ? lexeltHref({ page: lx.page - 1 }) : null,
                  next: lx.page < lx.pages ? lexeltHref({ page: lx.page + 1 }) : null,
                  label: `Page ${int(lx.page)} of ${int(lx.pages)} · lexelts ${int(lx.start + 1)}–${int(lx.start + lx.rows.length)} of ${int(lx.total)}${lx.q ? ` matching “${lx.q}” (${int(lx.all)} in all)` : ""}`,
                }}
              />
            )}
          </>
        )}
      </section>

      <ModelsSection projectId={id} actor={actor} />

      <section aria-labelledby="lowest-heading">
        <h2 id="lowest-heading">Lowest agreement</h2>
        {d.lowest.length === 0 ? (
          <p className="muted">No item has a pair of annotators who both gave substitutes yet.</p>
        ) : (
          <>
            <p className="muted small">
              The {plural(d.lowest.length, "item")} with the lowest pairwise agreement of {int(withPairs)} (ties: more pairs first). Substitutes
              are shown as they were compared: normalised, and through the lemma review (a form nobody decided as typed).
            </p>
            <ol className={styles.lowest}>
              {d.lowest.map((it) => (
                <LowestItem key={`${it.lexelt} ${it.instanceId}`} it={it} projectId={id} />
              ))}
            </ol>
          </>
        )}
      </section>
    </>
  );
}

/** The Agreement page's table of annotators: each one's answers and agreement, and the overall figures without them. */
import type { AnnotatorAgreement } from "@/lib/lexsub/agreement";
import type { AgreementPageView } from "@/lib/server/gold";
import { int, plural } from "@/app/_ui/format";
import styles from "./agreement.module.css";
import { dec, pct, points } from "./format";

type AgreementReport = AgreementPageView["report"];

/** Differences smaller than this are rounding noise, not a rise. */
const EPS = 1e-9;

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

/** Each annotator, or a line saying there are no answers yet. */
export function AnnotatorsSection({ r }: { r: AgreementReport }) {
  return (
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
  );
}

/** The top of the Gold page: the summary figures, the downloads, the proposals nobody decided (applied only on request), the derivation's problems. */
import Link from "next/link";
import { int, plural } from "@/app/_ui/format";
import type { GoldPageData } from "@/lib/server/gold";
import styles from "../gold.module.css";
import { href } from "./params";
import { proposalsNote } from "./summary-notes";

/** The gold's figures at a glance. */
export function Summary({ d }: { d: GoldPageData }) {
  const s = d.summary;
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading" className={styles.srOnly}>Summary</h2>
      <dl className={styles.summary}>
        <Figure label="Instances" value={s.instances} note={s.excluded > 0 ? `${s.excluded} excluded` : "none excluded"} />
        <Figure label="Gold lines" value={s.goldLines} />
        <Figure label="In T (|H| ≥ 2)" value={s.inT} />
        <Figure label="Items with a mode" value={s.withMode} />
        <Figure label="mwgold lines" value={s.mwLines} note="instances where anyone gave a multiword" />
        <Figure
          label="Majority multiwords"
          value={s.mwItems}
          note="the same multiword from at least two annotators, no tie: only these count in mw scoring"
        />
        <Figure label="Excluded" value={s.excluded} />
        <Figure
          label="Lemma proposals to decide"
          value={d.lemmas.openChanged}
          note={proposalsNote(d.lemmas)}
          tone={d.lemmas.openChanged > 0 ? "warn" : undefined}
        />
        <Figure label="Reviewed" value={d.reviewedCount} note={`of ${s.instances} instances`} />
        <Figure label="Adjudications" value={d.adjudicationCount} note="substitutes or responses struck or corrected" />
        {d.afterKnownAnswers > 0 && (
          <Figure
            label="Answered after the known answers"
            value={d.afterKnownAnswers}
            note="responses to training items saved after the training showed their known answers: left out of gold and agreement"
            tone="warn"
          />
        )}
      </dl>
    </section>
  );
}

/** The gold and mwgold files, the review log and the responses, for download. */
export function Downloads({ d, id, download }: { d: GoldPageData; id: number; download: string }) {
  return (
    <div className={styles.downloads}>
      <a className="button" href={`${download}?file=gold`} download>
        Download gold <span className={styles.sub}>({plural(d.files.goldLines, "line")})</span>
      </a>
      <a className="button secondary" href={`${download}?file=mwgold`} download>
        Download mwgold <span className={styles.sub}>({plural(d.files.mwLines, "line")})</span>
      </a>
      <a className="button secondary" href={`${download}?file=log`} download>
        Review log (CSV)
      </a>
      <a className="button secondary" href={`${download}?file=logtsv`} download>
        Review log (TSV)
      </a>
      <a className="button secondary" href={`/api/projects/${id}/responses`} download>
        Responses with adjudication (TSV)
      </a>
      <a className={`small ${styles.foldLink}`} href={`${download}?file=gold&fold=1`} download title="Every form kept or typed written in lower case (TV and tv become one entry); decided lemmas as recorded">
        Gold with case folded
      </a>
      {d.openProposals.count > 0 && (
        <a
          className={`small ${styles.foldLink}`}
          href={`${download}?file=gold&proposals=1`}
          download
          title="Every form nobody decided written as its lemma proposal (listed below); decided forms as recorded"
        >
          Gold with proposals applied
        </a>
      )}
    </div>
  );
}

/** The derivation's problems, the first ones listed, all of them for download. */
export function ProblemsNotice({ d, download }: { d: GoldPageData; download: string }) {
  if (d.problemCount === 0) return null;
  return (
    <div className="notice warn" role="status">
      <strong>{plural(d.problemCount, "problem")} in the derivation.</strong> Each says below what the gold files do about it (most leave out the answer or line named).
      <details className={styles.problems} open={d.problemCount <= 5}>
        <summary>{d.problemCount <= 5 ? "The problems" : d.problemCount > d.problems.length ? `The first ${d.problems.length} problems` : `All ${int(d.problemCount)} problems`}</summary>
        <ul>
          {d.problems.map((p, k) => (
            <li key={k}>
              <code>
                {p.lexelt} {p.instanceId}
              </code>
              {p.annotator && <> ({p.annotator})</>}: {p.message}
            </li>
          ))}
          {d.problemCount > d.problems.length && (
            <li>
              … and {int(d.problemCount - d.problems.length)} more:{" "}
              <a href={`${download}?file=problems`} download>
                download all {int(d.problemCount)} (TSV)
              </a>
              .
            </li>
          )}
        </ul>
      </details>
    </div>
  );
}

/** The lemma proposals nobody decided: the downloads write those forms as typed; the "with proposals" link applies these. */
export function ProposalsNotice({ proposals, base, download }: { proposals: GoldPageData["openProposals"]; base: string; download: string }) {
  const { count, uses, first, spacing } = proposals;
  if (count === 0 && spacing === 0) {
    return <p className={`muted small ${styles.appliedNone}`}>No lemma proposal is open: every form is written as typed (case kept) or as decided in the lemma review.</p>;
  }
  const review = <Link href={href(base, { open: true, changed: true })}>Review them</Link>;
  const appliedLink = (
    <a href={`${download}?file=gold&proposals=1`} download>
      gold with {count > 0 ? "these " : ""}proposals applied
    </a>
  );
  // Spellings imported with other spacing than their form's ("still " for "still"), which that download also tidies.
  const them = spacing === 1 ? "it" : "them";
  const spellings = (
    <>
      {plural(spacing, "spelling")} imported with other spacing than {spacing === 1 ? "its form's" : "their forms'"} (a space too many, or at an end)
    </>
  );
  if (count === 0) {
    return (
      <div className={`notice warn ${styles.applied}`} role="status" aria-labelledby="applied-heading">
        <strong id="applied-heading">
          {spellings} {spacing === 1 ? "is" : "are"} not decided: the downloads write {them} as typed.
        </strong>{" "}
        {review} (keep, accept or override each form: the downloads follow each decision), or download the {appliedLink}, which writes {them} with single spaces.
      </div>
    );
  }
  const spaced =
    spacing > 0 ? (
      <>
        {" "}
        {spellings} {spacing === 1 ? "is" : "are"} not decided either: that download writes {them} with single spaces.
      </>
    ) : null;
  return (
    <div className={`notice warn ${styles.applied}`} role="status" aria-labelledby="applied-heading">
      <strong id="applied-heading">
        {plural(count, "lemma proposal")} not decided ({plural(uses, "answer")}): the downloads write these forms as the annotators typed them.
      </strong>{" "}
      Each maps a form WordNet knows only as an inflection to its lemma. {review} (accept, keep
      or override: the downloads follow each decision), or download the {appliedLink}.{spaced}
      <details className={styles.problems} open={count <= 8}>
        <summary>{count <= 8 ? "The proposals" : count > first.length ? `The ${first.length} used most, of ${count}` : `All ${count} proposals`}</summary>
        <ul className={styles.appliedList}>
          {first.map((a) => (
            <li key={`${a.pos} ${a.form}`}>
              <code>{a.form}</code> → <code>{a.lemma}</code> <span className="muted small">({a.pos || "no PoS"}) ×{a.count}</span>
            </li>
          ))}
          {count > first.length && <li>… and {count - first.length} more (the lemma review lists them all).</li>}
        </ul>
      </details>
    </div>
  );
}

function Figure({ label, value, note, tone }: { label: string; value: number; note?: string; tone?: "warn" }) {
  return (
    <div className={`${styles.figure} ${tone === "warn" ? styles.figureWarn : ""}`}>
      <dt className="muted small">{label}</dt>
      <dd>
        <span className={styles.big}>{value}</span>
        {note && <span className={`muted small ${styles.note}`}>{note}</span>}
      </dd>
    </div>
  );
}

/** The lemma review: every distinct form typed, the lemma proposed, and the coordinator's decision. */
import { absoluteTime, relativeTime } from "@/app/_ui/time";
import type { GoldPageData } from "@/lib/server/gold";
import { FilterForm } from "../filters";
import styles from "../gold.module.css";
import { InTurns } from "@/app/_ui/in-turns";
import { AcceptAllForm, KeepAllForm, LemmaRow, type LemmaRowData } from "../lemma-row";
import { Pager } from "./pager";
import { href } from "./params";

export function LemmaView({
  d,
  base,
  q,
  now,
}: {
  d: GoldPageData;
  base: string;
  q: { contains: string; open: boolean; changed: boolean };
  now: Date;
}) {
  const page = d.lemmaPage;
  const hrefFor = (p: number) => href(base, { q: q.contains, open: q.open, changed: q.changed, lp: p > 1 ? p : undefined });
  const rows: LemmaRowData[] = page.rows.map((r) => ({
    form: r.form,
    count: r.count,
    pos: r.pos,
    proposed: r.proposed,
    proposals: r.proposals,
    choice: r.choice,
    spacing: r.spacing,
    changed: r.changed,
    decision: r.decision,
    lemma: r.lemma,
    decided: r.decision ? `${r.decidedBy ?? "command line"} · ${r.decidedAt ? relativeTime(r.decidedAt, now) : ""}` : null,
    decidedTitle: r.decidedAt ? absoluteTime(r.decidedAt) : null,
  }));
  return (
    <section aria-labelledby="lemmas-heading">
      <h2 id="lemmas-heading">Lemma review</h2>
      <p className="muted small">
        Every distinct form the annotators typed (one row for every spelling that differs only in case), with the lemma WordNet proposes for the target&apos;s PoS. A form WordNet has as a word of its own is never changed; an inflected form (films, took, mice) is proposed only as a lemma WordNet has. Forms with a proposal come first (marked by a bar at the left), then by frequency. Until a form is decided every download writes it as typed, case included (only the &ldquo;Gold with proposals applied&rdquo; link writes the proposal); accept the proposal to have the gold write the lemma, keep the form as typed when the lemma would change the meaning, or type another lemma and press Enter to override (case is kept as typed).
      </p>
      <div className={styles.toolbar}>
        <FilterForm action={base} view="lemmas" label="Filter forms">
          <div className={styles.filterField}>
            <label htmlFor="lemma-q">Form contains</label>
            <input id="lemma-q" name="q" type="search" defaultValue={q.contains} autoComplete="off" spellCheck={false} />
          </div>
          <label className={styles.check}>
            <input type="checkbox" name="open" value="1" defaultChecked={q.open} /> only open
          </label>
          <label className={styles.check}>
            <input type="checkbox" name="changed" value="1" defaultChecked={q.changed} /> only changed
          </label>
        </FilterForm>
        <div className={styles.bulk}>
          <AcceptAllForm open={d.lemmas.open} openChanged={d.lemmas.openChanged} />
          <KeepAllForm open={d.lemmas.open} />
        </div>
      </div>
      <Pager page={page} hrefFor={hrefFor} what={["form", "forms"]} label="Lemma review pages" />
      {page.total > 0 && (
        <div className={`table-wrap ${styles.lemmaWrap}`}>
          <table aria-labelledby="lemmas-heading" className={styles.lemmas}>
            <thead>
              <tr>
                <th scope="col">Form</th>
                <th scope="col" className="num">Count</th>
                <th scope="col">PoS</th>
                <th scope="col">Proposed</th>
                <th scope="col">In the gold</th>
                <th scope="col">Decision</th>
                <th scope="col">Decide</th>
              </tr>
            </thead>
            <tbody>
              <InTurns items={rows} render={(r, k) => <LemmaRow key={r.form} row={r} index={page.start + k} />} />
            </tbody>
          </table>
        </div>
      )}
      {page.total === 0 && (
        <p className="muted">{d.lemmas.forms === 0 ? "No substitutes typed yet: the review fills as responses come in." : "No form matches the filter."}</p>
      )}
      {page.pages > 1 && <Pager page={page} hrefFor={hrefFor} what={["form", "forms"]} label="Lemma review pages, bottom" />}
    </section>
  );
}

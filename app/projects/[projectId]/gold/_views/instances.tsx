/** The gold review and the review queue: the instances filtered and paged, each as a card. */
import { LexeltSelect } from "@/app/_ui/lexelt-select";
import type { AnnotatorNote } from "@/lib/server/annotate";
import type { GoldPageData } from "@/lib/server/gold";
import { FilterForm } from "../filters";
import styles from "../gold.module.css";
import { InstanceCard } from "./instance-card";
import { Pager } from "./pager";
import { formatHold, href, type InstanceParams } from "./params";
import { InTurns } from "@/app/_ui/in-turns";

export function InstanceView({
  d,
  base,
  q,
  view,
  now,
  notes,
}: {
  d: GoldPageData;
  base: string;
  q: InstanceParams & { hold?: Record<string, number | null> };
  view: "instances" | "queue";
  now: Date;
  notes: Map<string, Map<string, AnnotatorNote>>;
}) {
  const page = d.instancePage;
  const queue = view === "queue";
  const hrefFor = (p: number) =>
    href(base, {
      view,
      lexelt: q.lexelt,
      nomode: q.noMode,
      notint: q.notInT,
      excluded: q.excluded,
      mw: q.multiword,
      annotator: q.annotator,
      // The queue's defaults (unreviewed, by agreement) stay implicit; other choices are written out.
      reviewed: queue ? (q.reviewed === "no" ? undefined : q.reviewed || "any") : q.reviewed,
      order: queue ? (q.order === "agreement" ? undefined : q.order) : q.order === "agreement" ? q.order : undefined,
      flag: q.flag || undefined,
      // Instances held in place stay so on the other pages; a new filter starts afresh.
      hold: q.order === "agreement" && q.hold ? formatHold(q.hold) || undefined : undefined,
      ip: p > 1 ? p : undefined,
    });
  return (
    <section aria-labelledby="instances-heading">
      <h2 id="instances-heading">{queue ? "Review queue" : "Gold review"}</h2>
      <p className="muted small">
        {queue ? (
          <>
            The instances where the annotators agree least come first (per-item pairwise agreement after your adjudications; instances without one — not in T, or fewer than two annotators with substitutes — come last). Strike or correct a single substitute, strike a whole response, correct a multiword phrase (or use one for all, or say it is not a multiword), then mark the instance reviewed: it leaves the queue. An instance you decide on keeps its place until you change the filter, so the queue does not move under you.
          </>
        ) : (
          <>
            Each instance with every annotator&apos;s answer, the gold line derived from them and the mwgold line. Strike or correct one substitute (or a whole response), or correct a multiword phrase, under <em>Adjudicate</em>: the annotator&apos;s answer is kept, the gold and mwgold count your decision. Excluded instances stay here but are left out of the files and of agreement; a corrected PoS is written as <code>lemma.ori_pos.pos</code>.
          </>
        )}
      </p>
      <div className={styles.toolbar}>
        <FilterForm action={base} view={view} label="Filter instances">
          <div className={styles.filterField}>
            <label htmlFor="inst-lexelt">Lexelt</label>
            {d.lexelts.length > 0 || d.lexeltCount === 0 ? (
              <LexeltSelect id="inst-lexelt" lexelts={d.lexelts} value={q.lexelt} />
            ) : (
              // Too many to list: the item is typed (all lexelts when empty).
              <input id="inst-lexelt" name="lexelt" type="search" defaultValue={q.lexelt} placeholder={`one of ${d.lexeltCount}, e.g. bright.a`} />
            )}
          </div>
          <label className={styles.check}>
            <input type="checkbox" name="nomode" value="1" defaultChecked={q.noMode} /> no mode
          </label>
          <label className={styles.check}>
            <input type="checkbox" name="notint" value="1" defaultChecked={q.notInT} /> not in T
          </label>
          <label className={styles.check}>
            <input type="checkbox" name="excluded" value="1" defaultChecked={q.excluded} /> excluded
          </label>
          <div className={styles.filterField}>
            <label htmlFor="inst-annotator">Annotator</label>
            <select id="inst-annotator" name="annotator" defaultValue={q.annotator}>
              <option value="">Anyone</option>
              {d.annotators.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.filterField}>
            <label htmlFor="inst-reviewed">Reviewed</label>
            <select id="inst-reviewed" name="reviewed" defaultValue={q.reviewed === "" ? (queue ? "any" : "") : q.reviewed}>
              <option value={queue ? "any" : ""}>Either</option>
              <option value="no">Not reviewed</option>
              <option value="yes">Reviewed</option>
            </select>
          </div>
          <div className={styles.filterField}>
            <label htmlFor="inst-flag">Flag</label>
            <select id="inst-flag" name="flag" defaultValue={q.flag}>
              <option value="">Any or none</option>
              <option value="any">Flagged</option>
              <option value="unsure">Flagged: unsure</option>
              <option value="typo">Flagged: typo in the sentence</option>
              <option value="name">Flagged: part of a name?</option>
              <option value="other">Flagged: other</option>
            </select>
          </div>
          <div className={styles.filterField}>
            <label htmlFor="inst-order">Order</label>
            <select id="inst-order" name="order" defaultValue={q.order}>
              <option value="corpus">As in the corpus</option>
              <option value="agreement">Lowest agreement first</option>
            </select>
          </div>
          <label className={styles.check}>
            <input type="checkbox" name="mw" value="1" defaultChecked={q.multiword} /> has multiword
          </label>
        </FilterForm>
      </div>
      <Pager page={page} hrefFor={hrefFor} what={["instance", "instances"]} label="Gold review pages" />
      {page.total === 0 && <p className="muted">{d.summary.instances === 0 ? "No instances yet: load lexelt XML on the Corpus tab." : "No instance matches the filter."}</p>}
      <ol className={`plain ${styles.instances}`} start={page.start + 1}>
        <InTurns
          items={page.rows}
          render={(r) => (
            <li key={r.item.instanceId}>
              <InstanceCard
                r={r}
                now={now}
                notes={notes.get(r.item.instanceId)}
                rank={q.order === "agreement" ? (q.hold && Object.hasOwn(q.hold, r.item.instanceId) ? q.hold[r.item.instanceId] : r.pairwise) : undefined}
              />
            </li>
          )}
        />
      </ol>
      {page.pages > 1 && <Pager page={page} hrefFor={hrefFor} what={["instance", "instances"]} label="Gold review pages, bottom" />}
    </section>
  );
}

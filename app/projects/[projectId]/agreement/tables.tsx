/** The Agreement page's breakdowns: the per-item distribution, by part of speech, by lexelt (searched, sorted and paged on the server), and the lowest items. */
import Link from "next/link";
import type { AgreementFigures } from "@/lib/lexsub/agreement";
import type { AgreementPageView } from "@/lib/server/gold";
import { int, plural } from "@/app/_ui/format";
import { ChartFigure } from "@/app/_ui/charts/chart-figure";
import { itemAgreementHistogram } from "@/lib/charts/agreement";
import styles from "./agreement.module.css";
import { DEFINE } from "./figures";
import { LowestItem } from "./item-sections";
import { type Column, type Row, SortableTable } from "./sortable-table";
import { InTurns } from "@/app/_ui/in-turns";

type AgreementReport = AgreementPageView["report"];

const POS_NAMES: Record<string, string> = { n: "nouns", v: "verbs", a: "adjectives", r: "adverbs", "": "unknown PoS" };

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

/** How many items fall in each band of pairwise agreement. */
export function DistributionSection({ r, withPairs }: { r: AgreementReport; withPairs: number }) {
  return (
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
  );
}

/** The figures for each part of speech, sorted in the browser. */
export function PosSection({ r }: { r: AgreementReport }) {
  return (
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
  );
}

/** The figures for each lexelt: found by item, sorted and paged on the server. */
export function LexeltSection({ lx }: { lx: AgreementPageView["lexelts"] }) {
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
  );
}

/** The items with the lowest pairwise agreement, each with its answers. */
export function LowestSection({ d, projectId }: { d: AgreementPageView; projectId: number }) {
  const id = projectId;
  const withPairs = d.itemsWithPairs;
  return (
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
            <InTurns items={d.lowest} render={(it) => <LowestItem key={`${it.lexelt} ${it.instanceId}`} it={it} projectId={id} />} />
          </ol>
        </>
      )}
    </section>
  );
}

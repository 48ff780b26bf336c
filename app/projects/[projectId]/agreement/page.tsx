import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { type AgreementPageView, agreementPageView } from "@/lib/server/gold";
import { catchUpFigures } from "@/lib/server/derived";
import { refreshAgreementAlpha } from "@/lib/server/jobs";
import { NotFoundError } from "@/lib/server/kernel";
import styles from "./agreement.module.css";
import { AnnotatorsSection } from "./annotator-table";
import { HeadlineSection } from "./figures";
import { ModelsSection } from "./models-section";
import { PairsSection } from "./item-sections";
import { DistributionSection, LexeltSection, LowestSection, PosSection } from "./tables";

export const metadata: Metadata = { title: "Agreement" };
export const dynamic = "force-dynamic";

/** α and the intervals are computed again in the background when a page finds them this much older than a change. */
const ALPHA_AUTO_MS = 10 * 60_000;

type Search = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export default async function AgreementPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const sp = await searchParams;
  const id = Number(projectId);
  let d: AgreementPageView;
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

      <HeadlineSection d={d} projectId={id} computing={computing} />

      <AnnotatorsSection r={r} />

      <DistributionSection r={r} withPairs={d.itemsWithPairs} />

      <PairsSection pairs={d.pairs} />

      <PosSection r={r} />

      <LexeltSection lx={d.lexelts} />

      <ModelsSection projectId={id} actor={actor} />

      <LowestSection d={d} projectId={id} />
    </>
  );
}

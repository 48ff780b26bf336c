import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/kernel";
import { type ProgressChartData, type ProgressPageView, progressPageView } from "@/lib/server/annotate";
import { catchUpFigures } from "@/lib/server/derived";
import { deriveWithin } from "@/lib/server/jobs";
import { ChartsComing, ProgressCharts } from "@/app/_ui/charts/progress-charts";
import { Crowd } from "./crowd";
import type { Search } from "./parts";
import { Summary, Warnings } from "./summary";
import { AnnotatorLexelts, AnnotatorsSection, LexeltAnnotators, LexeltsSection } from "./tables";

export const metadata: Metadata = { title: "Progress" };
export const dynamic = "force-dynamic";

/** How long the page waits for its charts before it renders without them (they follow: ChartsComing). */
const CHARTS_WAIT_MS = 300;

export default async function ProgressPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const sp = await searchParams;
  let p: ProgressPageView;
  let charts: ProgressChartData | null;
  const num = (v: string | undefined) => (v === undefined || v === "" || !Number.isFinite(Number(v)) ? undefined : Number(v));
  try {
    // Read from counters kept as answers change (#39): nothing here grows with the responses; of the lexelts × annotators grid only the cells shown.
    const db = getDb();
    await catchUpFigures(db, actor, Number(projectId));
    p = progressPageView(db, actor, Number(projectId), {
      q: sp.q,
      page: num(sp.page),
      who: sp.who,
      apage: num(sp.apage),
      lexelt: num(sp.lexelt),
      annotator: num(sp.annotator),
      lpage: num(sp.lpage),
      dpage: num(sp.dpage),
    });
    // The charts are drawn in the derivation process: the page waits for them a moment, not while that process starts or is busy.
    charts = await deriveWithin(getDb(), { op: "progressCharts", actor, projectId: Number(projectId) }, CHARTS_WAIT_MS);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const base = `/projects/${p.project.id}/progress`;
  const now = new Date();
  const required = p.project.requiredAnnotators;
  const { crowd } = p;
  const hasCrowd = crowd.studies.length > 0 || crowd.imported !== null;
  const crowdJoined = hasCrowd ? crowd.studies.reduce((n, s) => n + s.joined, 0) + (crowd.imported?.participants ?? 0) : null;

  return (
    <>
      <h1>Progress</h1>
      <p className="muted">
        {p.project.name} · {required === null ? "each instance needs everyone assigned to its lexelt" : `each instance needs ${required} response${required === 1 ? "" : "s"}`}
      </p>

      <Warnings p={p} hasCrowd={hasCrowd} />

      <Summary p={p} crowdJoined={crowdJoined} />

      {p.focusLexelt && <LexeltAnnotators focus={p.focusLexelt} annotators={p.annotators} sp={sp} base={base} />}

      {p.focusAnnotator && <AnnotatorLexelts focus={p.focusAnnotator} sp={sp} base={base} />}

      <AnnotatorsSection p={p} sp={sp} base={base} hasCrowd={hasCrowd} now={now} />

      {hasCrowd && <Crowd crowd={crowd} projectId={p.project.id} now={now} />}

      {charts ? <ProgressCharts data={charts} /> : <ChartsComing href={`${base}?${new URLSearchParams(Object.entries(sp).filter((e): e is [string, string] => typeof e[1] === "string"))}`} />}

      <LexeltsSection p={p} sp={sp} base={base} />
    </>
  );
}

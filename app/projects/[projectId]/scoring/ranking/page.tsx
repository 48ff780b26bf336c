import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/kernel";
import { listRuns } from "@/lib/server/scoring";
import { answerOf, pageOutcome } from "@/app/_ui/native-answer";
import { RankingForm } from "./ranking-form";

export const metadata: Metadata = { title: "Ranking measures" };
export const dynamic = "force-dynamic";

export default async function RankingPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<{ outcome?: string }> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const id = Number(projectId);
  try {
    // The coordinator check for this project (the route checks again on submit).
    listRuns(getDb(), actor, id);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  return (
    <>
      <p className="small">
        <Link href={`/projects/${id}/scoring`}>← Scoring</Link>
      </p>
      <h1>Ranking measures</h1>
      <p className="muted">
        Score ranked substitute lists the way today&apos;s benchmarks do: TSAR-2022 and MLSP (ACC@1, Accuracy@K@top1, MAP@K, Potential@K, as
        tsar_eval.py), SWORDS (F@10 strict and lenient, acceptable and conceivable, P@1 and GAP, as swords/eval.py) and GAP with P@1, P@3 and R@10
        against a weighted gold — the project&apos;s own or an uploaded one. Figures reproduce each reference script by default; see docs/ranking.md for
        every definition and repair. The files are scored when you submit and are not stored.
      </p>
      <RankingForm projectId={id} outcome={answerOf(await pageOutcome(`/projects/${id}/scoring/ranking`, (await searchParams).outcome), "ranking")} />
    </>
  );
}

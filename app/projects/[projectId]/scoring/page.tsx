import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/kernel";
import { scoringBoardView } from "@/lib/server/jobs";
import { FollowFigures } from "@/app/_ui/follow-figures";
import { type GoldSource, MAX_RUN_BYTES, type ScoreBoard } from "@/lib/server/scoring";
import { listModels } from "@/lib/server/models";
import { addRunsAction } from "../models/actions";
import { AddRunsForm } from "../models/forms";
import { answerOf, pageOutcome } from "@/app/_ui/native-answer";
import { recomputeOthersAction } from "./actions";
import { SensevalSection } from "./senseval";
import { ScoringWorkbench } from "./workbench";
import { RunScoresCharts } from "@/app/_ui/charts/run-scores";

export const metadata: Metadata = { title: "Scoring" };


/** A time of day, HH:MM:SS (the server's clock), with the date when not today. */
function asOf(ms: number): string {
  const d = new Date(ms);
  const time = d.toTimeString().slice(0, 8);
  return d.toDateString() === new Date().toDateString() ? time : `${d.toISOString().slice(0, 10)} ${time}`;
}
export const dynamic = "force-dynamic";

export default async function ScoringPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const id = Number(projectId);
  // ?figures=repaired keeps the repaired figures across a reload; anything else is score.pl's.
  // ?gold=ID keeps the stored gold whose runs are ranked; absent, the project's own.
  const query = await searchParams;
  const repaired = query.figures === "repaired";
  // ?reading=utf8 reads the files as UTF-8 text (perl -CSD score.pl), ?reading=bytes as score.pl does;
  // without it, the project's default (bytes for English, UTF-8 text for another language).
  const reading = query.reading === "utf8" ? "utf8" : query.reading === "bytes" ? "bytes" : undefined;
  const goldParam = typeof query.gold === "string" ? query.gold : "";
  const goldId = Number(goldParam);
  const source: GoldSource = goldParam !== "" && goldParam !== "project" && Number.isSafeInteger(goldId) && goldId > 0 ? { kind: "stored", id: goldId } : { kind: "project" };
  let board: ScoreBoard;
  try {
    // score.pl's figures added up from the outcomes kept per id as answers change (#39), the rest from a whole scoring in the background.
    board = await scoringBoardView(getDb(), actor, id, source, { repaired, reading });
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  // A form posted without JavaScript: the route's answer, by form (app/_ui/native-answer.ts).
  const outcome = await pageOutcome(`/projects/${id}/scoring`, query.outcome);
  return (
    <>
      <h1>Scoring</h1>
      <p className="muted">
        Systems scored as the official SemEval-2007 scorer scores them: best, out-of-ten and multiword, with its numbers to the last printed digit
        (hover a figure for the unrounded value). Where a documented repair of its misreadings would change a figure, the repaired one is shown
        beside it.
      </p>
      <p className="small">
        <Link href={`/projects/${id}/scoring/ranking`}>Ranking measures</Link>: TSAR-2022/MLSP, SWORDS, GAP and P@k for ranked outputs.
      </p>
      {board.others && board.runs.length > 0 && (
        <div className="small muted">
          <p>
            score.pl&rsquo;s figures follow the answers as they are saved. The repaired and UTF-8 figures beside them, and the intervals on the chart, come from scoring every
            run whole, in the background:{" "}
            {board.others.computedAt === null ? (
              <>not computed yet — computing now; the page shows them when they are ready (without JavaScript: reload in a moment).</>
            ) : (
              <>
                as of <span data-testid="others-as-of">{asOf(board.others.computedAt)}</span>
                {board.others.stale ? ", and answers have changed since" : ", and nothing has changed since"}
                {board.others.computing ? ": computing them again now." : "."}
              </>
            )}
          </p>
          <FollowFigures computing={board.others.computing === true} />
          {(board.others.stale || board.others.missing) && (
            <form action={recomputeOthersAction.bind(null, id, source.kind === "stored" ? String(source.id) : "")}>
              <button type="submit" className="secondary">
                Score the runs whole again
              </button>
            </form>
          )}
        </div>
      )}
      <ScoringWorkbench
        projectId={id}
        initialBoard={board}
        maxBytes={MAX_RUN_BYTES}
        outcomes={{ run: answerOf(outcome, "run"), gold: answerOf(outcome, "gold"), baselines: answerOf(outcome, "baselines") }}
      />
      <RunScoresCharts board={board} />
      {/* A model's answers as runs (issue #41): the models with answers. */}
      <AddRunsForm act={addRunsAction.bind(null, id)} models={listModels(getDb(), actor, id).filter((m) => m.answers > 0).map((m) => ({ name: m.name, samples: m.samples }))} />
      <SensevalSection projectId={id} outcome={answerOf(outcome, "senseval")} />
    </>
  );
}

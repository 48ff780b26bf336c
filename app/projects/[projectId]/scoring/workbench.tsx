"use client";
import type { ScoreBoard } from "@/lib/server/scoring";
import { withReading } from "./client";
import { Compare } from "./compare";
import { RunDetailView } from "./detail";
import { GoldSection } from "./gold-section";
import { ResultsSection } from "./results-section";
import { Baselines, UploadRun } from "./uploads";
import { useScoringBoard } from "./use-scoring-board";
import { useScripted } from "@/app/_ui/scripted";

/**
 * The Scoring page's lexical-substitution part: the golds, uploads, the runs of one gold ranked, comparison and one run's detail.
 * Without JavaScript the choices of gold, figures and reading are forms that load the page for them, and the uploads post
 * themselves (`outcomes`: the routes' answers then, by form, app/_ui/native-answer.ts).
 */
export function ScoringWorkbench({ projectId, initialBoard, maxBytes, outcomes = {} }: { projectId: number; initialBoard: ScoreBoard; maxBytes: number; outcomes?: { run?: unknown; gold?: unknown; baselines?: unknown } }) {
  const w = useScoringBoard(projectId, initialBoard);
  const { board, gold, busy, detail, setDetail, reload, open, mode, reading, api } = w;
  const scripted = useScripted();
  return (
    <>
      <GoldSection projectId={projectId} w={w} scripted={scripted} outcome={outcomes.gold} />

      <UploadRun projectId={projectId} golds={board.golds} gold={gold} maxBytes={maxBytes} onStored={() => reload(gold)} outcome={outcomes.run} />
      <Baselines projectId={projectId} gold={gold} goldLabel={board.gold.label} disabled={busy !== null} onStored={() => reload(gold)} outcome={outcomes.baselines} />

      <ResultsSection projectId={projectId} w={w} scripted={scripted} />

      {detail && (
        <RunDetailView
          key={`${detail.run.id}-${detail.mode}-${"paged" in detail}`}
          projectId={projectId}
          detail={detail}
          itemsUrl={withReading(`${api}/runs/${detail.run.id}`, reading)}
          onClose={() => setDetail(null)}
          onWhole={() => open(detail.run.id, mode, reading, true)}
        />
      )}

      {board.runs.length > 1 && <Compare runs={board.runs} />}
    </>
  );
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import type { Table8Cell } from "@/lib/lexsub/judgement";
import { NotFoundError } from "@/lib/server/kernel";
import { listRounds, roundResults } from "@/lib/server/judgement";
import { listGolds, listRuns } from "@/lib/server/scoring";
import { listMembers } from "@/lib/server/people";
import { CreateRoundForm } from "./create-round-form";
import { listModels } from "@/lib/server/models";
import { RoundControls } from "./round-controls";
import { createRoundAction, setJudgesAction, setRoundStateAction } from "./actions";
import { alphaText } from "./alpha-text";
import { Table8Chart } from "@/app/_ui/charts/table8-chart";

export const metadata: Metadata = { title: "Judgement" };
export const dynamic = "force-dynamic";

const pct = (c: Table8Cell) => `${c.percent.toFixed(1)}% (${c.count})`;
const ci = (c: Table8Cell) => `${(100 * c.interval.low).toFixed(1)}–${(100 * c.interval.high).toFixed(1)}`;

export default async function JudgementPage({ params }: { params: Promise<{ projectId: string }> }) {
  const actor = await requireCoordinatorPage();
  const projectId = Number((await params).projectId);
  const db = getDb();
  let rounds;
  try {
    rounds = listRounds(db, actor, projectId);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  // Who can judge: the project's judges first, then its annotators (never a coordinator).
  const members = listMembers(db, actor, projectId)
    .filter((m) => m.projectRole !== "coordinator")
    .sort((a, b) => Number(b.projectRole === "judge") - Number(a.projectRole === "judge"))
    .map((m) => ({ id: m.id, name: m.name, judge: m.projectRole === "judge" }));
  const goldNames = new Map(listGolds(db, actor, projectId).map((g) => [g.id, g.name]));
  const runs = listRuns(db, actor, projectId)
    .filter((r) => r.type !== "mw")
    .map((r) => ({ id: r.id, name: r.name, type: r.type, gold: goldNames.get(r.goldId) ?? "" }));
  return (
    <>
      <h1>Judgement</h1>
      <p className="muted">
        Post-hoc judgement of candidate substitutes (task paper §5.1): judges label each candidate good, reasonable or bad without seeing where it came from.
        The verdict is the majority; with no majority the lower middle label (so one good and one reasonable is reasonable).
      </p>
      {rounds.map((r) => {
        const res = roundResults(db, actor, r.id);
        const needed = r.candidates * r.judgesPerCandidate;
        return (
          <section key={r.id} className="panel" aria-label={`Round ${r.name}`}>
            <h2>
              {r.name} <span className="tag">{r.selection === "posthoc" ? "§5.1 preset" : "any item"}</span>
              {r.state === "closed" && <span className="tag">closed</span>}
            </h2>
            <p className="small">
              {r.items} items · {r.candidates} candidates · {r.labels} labels of at least {needed} · seed {r.seed} · {r.judgesPerCandidate} {r.judgesPerCandidate === 1 ? "judge" : "judges"} per candidate
              {r.escalationCap > r.judgesPerCandidate ? `, up to ${r.escalationCap} when any says good` : ""}
            </p>
            <p className="small" data-testid="judges">
              Judges: {r.judges.length === 0 ? "none yet" : r.judges.map((j) => `${j.name} (${j.labels})`).join(", ")}
            </p>
            <p className="small" id={`t8-${r.id}`}>
              Table 8 per source: share of candidates by verdict (count), Wilson 95% interval
            </p>
            <div className="table-wrap">
              <table data-testid="table8" aria-labelledby={`t8-${r.id}`}>
                <thead>
                  <tr>
                    <th scope="col">Source</th>
                    <th scope="col">Judged</th>
                    <th scope="col">good</th>
                    <th scope="col">reasonable</th>
                    <th scope="col">bad</th>
                  </tr>
                </thead>
                <tbody>
                  {res.table8.map((row) => (
                    <tr key={row.source} data-source={row.source}>
                      <th scope="row">{row.source}</th>
                      <td data-cell="total">{row.total}</td>
                      {(["good", "reasonable", "bad"] as const).map((v) => (
                        <td key={v} data-cell={v}>
                          {pct(row[v])} <span className="small muted">[{ci(row[v])}]</span>
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Table8Chart rows={res.table8} id={`t8-chart-${r.id}`} />
            <p className="small" data-testid="alpha">
              Krippendorff&apos;s α: {alphaText(res.alpha, r.judges.filter((j) => j.labels > 0).length)}
            </p>
            <p className="small">
              <a href={`/api/projects/${projectId}/judgement/${r.id}/swords`} download>
                SWORDS JSON
              </a>{" "}
              ·{" "}
              <a href={`/api/projects/${projectId}/judgement/${r.id}/extended-gold`} download>
                Extended gold
              </a>
            </p>
            <RoundControls
              actions={{ setJudges: setJudgesAction.bind(null, projectId, r.id), setState: setRoundStateAction.bind(null, projectId, r.id) }}
              roundName={r.name} state={r.state} members={members} judges={r.judges.map((j) => j.userId)} />
          </section>
        );
      })}
      <CreateRoundForm create={createRoundAction.bind(null, projectId)} members={members} runs={runs} models={listModels(db, actor, projectId).map((m) => m.name)} />
    </>
  );
}

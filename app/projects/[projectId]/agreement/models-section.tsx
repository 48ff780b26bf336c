/**
 * The Agreement tab's Models section (issue #41): each model measured against the people with the task's
 * own measures, from lib/server/models (computed in the background, shown with its age; a newer
 * computation is started here when the answers changed since).
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { getDb } from "@/lib/db";
import { startJob } from "@/lib/server/jobs";
import type { Actor } from "@/lib/server/kernel";
import { type ModelFigures, type ModelMeasuresReport, modelMeasuresView } from "@/lib/server/models";
import { absoluteTime, relativeTime } from "@/app/_ui/time";
import { int } from "@/app/_ui/format";
import { ChartFigure } from "@/app/_ui/charts/chart-figure";
import { modelAgreementChart } from "@/lib/charts/models";
import { alpha, DASH, pct } from "./format";
import { FollowFigures } from "@/app/_ui/follow-figures";
import styles from "./models-section.module.css";

const POS_NAMES: Record<string, string> = { n: "nouns", v: "verbs", a: "adjectives", r: "adverbs", "": "unknown PoS" };

type Fig = { n: number; value: number | null };

function Cell({ f, what }: { f: Fig; what: string }) {
  return (
    <td className="num" title={f.value === null ? `no ${what} yet` : `${String(f.value)} over ${int(f.n)} ${what}`}>
      {pct(f.value)} <span className="small muted">({int(f.n)})</span>
    </td>
  );
}

/** A group's figures (per PoS, per lexelt): with the pool and with the mode. */
function GroupTable({ label, caption, head, rows }: { label: string; caption?: string; head: string; rows: { key: string; name: ReactNode; withPool: Fig; withMode: Fig }[] }) {
  return (
    <div className="table-wrap">
      <table aria-label={label}>
        {caption && <caption className="small muted">{caption}</caption>}
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col" className="num">
              With the pool
            </th>
            <th scope="col" className="num">
              With the mode
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.name}</th>
              <Cell f={r.withPool} what="pairs" />
              <Cell f={r.withMode} what="answers on items with a mode" />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ModelDetail({ m, people }: { m: ModelFigures; people: ModelMeasuresReport["people"] }) {
  const own = new Map(people.perAnnotator.map((p) => [p.annotator, p]));
  const lowest = [...m.byLexelt].filter((l) => l.withPool.value !== null).sort((a, b) => a.withPool.value! - b.withPool.value! || b.withPool.n - a.withPool.n).slice(0, 15);
  const breaks = Object.entries(m.samples[0]?.breaks ?? {});
  return (
    <details className={styles.detail}>
      <summary>
        {m.name}: with each person, per PoS and lexelt{m.anchoring.shown.n > 0 ? ", anchoring" : ""}
      </summary>
      <div className={styles.detailGrid}>
        <div className="table-wrap">
          <table aria-label={`${m.name} with each person`}>
            <thead>
              <tr>
                <th scope="col">Person</th>
                <th scope="col" className="num">
                  With {m.name}
                </th>
                <th scope="col" className="num">
                  With the other people
                </th>
              </tr>
            </thead>
            <tbody>
              {m.withPeople.map((p) => (
                <tr key={p.annotator}>
                  <th scope="row">{p.annotator}</th>
                  <td className="num">
                    {pct(p.agreement)} <span className="small muted">({int(p.pairs)})</span>
                  </td>
                  <td className="num">{pct(own.get(p.annotator)?.pairwise)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <GroupTable label={`${m.name} per part of speech`} head="PoS" rows={m.byPos.map((p) => ({ key: p.pos, name: POS_NAMES[p.pos] ?? p.pos, ...p }))} />
      </div>
      {lowest.length > 0 && (
        <GroupTable
          label={`${m.name}: the lexelts where it agrees least`}
          caption={`The lexelts where ${m.name} agrees least with the people`}
          head="Lexelt"
          rows={lowest.map((l) => ({ key: l.lexelt, name: <code>{l.lexelt}</code>, ...l }))}
        />
      )}
      <p className="small">
        Anchoring: the people&apos;s answers given after seeing {m.name}&apos;s agree with it {pct(m.anchoring.shown.value)} ({int(m.anchoring.shown.n)} pairs); answers given blind {pct(m.anchoring.blind.value)} (
        {int(m.anchoring.blind.n)} pairs).
      </p>
      {breaks.length > 0 && (
        <p className="small muted">
          Kept as written though they break the workspace&apos;s rules: {breaks.map(([rule, n]) => `${rule} ${int(n!)}`).join(", ")}.
        </p>
      )}
    </details>
  );
}

/** The section: headline table of the models beside the people, details per model. */
export async function ModelsSection({ projectId, actor }: { projectId: number; actor: Actor }) {
  const db = getDb();
  let v = modelMeasuresView(db, actor, projectId);
  if (v.stale && !v.computing && v.answering) {
    startJob(db, actor, projectId, "model-measures", {});
    v = { ...v, computing: true };
  }
  const r = v.report;
  if (!r || r.models.length === 0) {
    if (v.computing && !r) return <FollowFigures computing />;
    return null;
  }
  const chart = modelAgreementChart(r.people.perAnnotator, r.people.pairwise, r.models.map((m) => ({ name: m.name, withPool: m.withPool.value })));
  const now = new Date();
  const at = v.computedAt === null ? null : new Date(v.computedAt);
  return (
    <section aria-labelledby="models" className={styles.section}>
      <FollowFigures computing={v.computing} />
      <h2 id="models">Models</h2>
      <p className="muted small">
        Each model against the people (<Link href={`/projects/${projectId}/models`}>Models tab</Link>), over the people&apos;s T and mode; its first sample unless said. With the pool: the pairwise agreement of its answers with
        each person&apos;s, to set beside the people&apos;s own ({pct(r.people.pairwise)} among {int(r.people.annotators)} people); with the mode: the share of its answers holding the people&apos;s mode (people:{" "}
        {pct(r.people.modeAgreement)}); α with it beside α without it ({alpha(r.people.alphaMasi)}).
      </p>
      <div className="table-wrap">
        <table aria-labelledby="models" className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col" className="num">
                Answers
              </th>
              <th scope="col" className="num">
                With the pool
              </th>
              <th scope="col" className="num">
                With the mode
              </th>
              <th scope="col" className="num">
                α with it
              </th>
              <th scope="col" className="num">
                α without
              </th>
              <th scope="col" className="num">
                Its samples
              </th>
            </tr>
          </thead>
          <tbody>
            {r.models.map((m) => (
              <tr key={m.name}>
                <th scope="row">
                  {m.name} {m.counted && <span className="tag">counted</span>}
                </th>
                <td className="num">{m.samples.map((s) => int(s.answered)).join(" · ")}</td>
                <Cell f={m.withPool} what="pairs" />
                <Cell f={m.withMode} what="answers on items with a mode" />
                <td className="num">{alpha(m.alphaWith)}</td>
                <td className="num">{alpha(r.people.alphaMasi)}</td>
                {m.samplesAgreement ? <Cell f={m.samplesAgreement} what="pairs of samples" /> : <td className="num">{DASH}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {chart && <ChartFigure chart={chart} />}
      {r.models.map((m) => (
        <ModelDetail key={m.name} m={m} people={r.people} />
      ))}
      <p className="muted small">
        {at && (
          <>
            Computed{" "}
            <time dateTime={at.toISOString()} title={absoluteTime(at)}>
              {relativeTime(at, now)}
            </time>{" "}
            in {((v.computeMs ?? 0) / 1000).toFixed(2)} s
          </>
        )}
        {v.computing ? "; newer answers are being counted." : v.stale ? "; answers have changed since." : "; nothing has changed since."}
      </p>
    </section>
  );
}

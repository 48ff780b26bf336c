import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError, pathId } from "@/lib/server/kernel";
import { releaseDetail, type ReleaseDetail, type ReleasePlot, releasePlots } from "@/lib/server/releases";
import { int } from "@/app/_ui/format";
import { bytesText } from "../format";
import styles from "../releases.module.css";
import { ReleasePlots } from "./release-plots";

export const metadata: Metadata = { title: "Release" };
export const dynamic = "force-dynamic";

const pct = (x: number | null) => (x === null ? "—" : `${(100 * x).toFixed(1)}\u00a0%`);

type Facts = ReleaseDetail["facts"];
const FIGURES: Array<{ label: string; value: (f: Facts) => string }> = [
  { label: "Lexelts", value: (f) => int(f.lexelts) },
  { label: "Instances", value: (f) => int(f.instances) },
  { label: "Excluded instances", value: (f) => int(f.excludedInstances) },
  { label: "Gold lines", value: (f) => int(f.goldLines) },
  { label: "mwgold lines", value: (f) => int(f.mwgoldLines) },
  { label: "Answers", value: (f) => int(f.answers) },
  { label: "Counted in the gold", value: (f) => int(f.countedAnswers) },
  { label: "Left out", value: (f) => int(f.leftOutAnswers) },
  { label: "Annotators", value: (f) => int(f.annotators) },
  { label: "Crowd participants", value: (f) => int(f.participants) },
  { label: "Answers per instance (median)", value: (f) => String(f.overlap.median) },
  { label: "Pairwise agreement", value: (f) => pct(f.agreement.pairwise) },
  { label: "Agreement with the mode", value: (f) => pct(f.agreement.modeAgreement) },
  { label: "Krippendorff's α (MASI)", value: (f) => (f.agreement.alphaMasi === null ? "—" : f.agreement.alphaMasi.toFixed(3)) },
];

/** One release (coordinator): what it states, what changed since the release before it, its files and checksums, the download. */
export default async function ReleasePage({ params }: { params: Promise<{ projectId: string; releaseId: string }> }) {
  const actor = await requireCoordinatorPage();
  const p = await params;
  const pid = pathId(p.projectId);
  const rid = pathId(p.releaseId);
  if (pid === null || rid === null) notFound();
  let r: ReleaseDetail;
  let plots: ReleasePlot[];
  try {
    r = releaseDetail(getDb(), actor, pid, rid);
    plots = await releasePlots(getDb(), actor, pid, rid);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const c = r.summary.changes;
  const fileHref = (path: string) => `/api/projects/${pid}/releases/${r.id}/files/${path.split("/").map(encodeURIComponent).join("/")}`;
  return (
    <>
      <p className="small">
        <Link href={`/projects/${pid}/releases`}>← Releases</Link>
      </p>
      <h1>
        {r.summary.project} {r.version}
      </h1>
      <p>
        Made {r.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC{r.createdByName ? ` by ${r.createdByName}` : " from the command line"}, from the
        project as it stood at data version {int(r.dataVersion)}. Frozen: later changes to the project never change it.{" "}
        {r.include.names ? "It carries account names beside the pseudonyms. " : "Annotators are named by pseudonyms only. "}
        {r.include.notes ? "It carries the annotators' flags and notes." : ""}
      </p>
      <p>
        <a className="button" href={`/api/projects/${pid}/releases/${r.id}`} download>
          Download {r.fileName}
        </a>{" "}
        <span className="small muted">{bytesText(r.archiveBytes)}</span>
      </p>
      <p className={`small ${styles.sha}`}>
        SHA-256 of the archive: <code>{r.archiveSha256}</code>
      </p>

      <section className="panel" aria-labelledby="changes-h">
        <h2 id="changes-h">{c ? `What changed since ${c.previous}` : "The first release"}</h2>
        {c ? (
          <>
            <div className="table-wrap">
              <table>
                <caption className={styles.srOnly}>Figures of {c.previous} and of {r.version}</caption>
                <thead>
                  <tr>
                    <th scope="col">Figure</th>
                    <th scope="col" className="num">
                      {c.previous}
                    </th>
                    <th scope="col" className="num">
                      {r.version}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {FIGURES.map((f) => (
                    <tr key={f.label}>
                      <th scope="row">{f.label}</th>
                      <td className="num">{f.value(c.facts.before)}</td>
                      <td className="num">{f.value(c.facts.after)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              Instances: {int(c.instances.added)} added{c.instances.addedIds.length ? ` (${c.instances.addedIds.join(", ")}${c.instances.added > c.instances.addedIds.length ? ", …" : ""})` : ""},{" "}
              {int(c.instances.removed)} removed{c.instances.removedIds.length ? ` (${c.instances.removedIds.join(", ")}${c.instances.removed > c.instances.removedIds.length ? ", …" : ""})` : ""}.
              Gold lines: {int(c.goldLines.added)} added, {int(c.goldLines.removed)} removed, {int(c.goldLines.changed)} changed.
            </p>
            {c.goldLines.examples.length > 0 && (
              <details>
                <summary>
                  {c.goldLines.examples.length === c.goldLines.added + c.goldLines.removed + c.goldLines.changed ? "The gold lines that changed" : `The first ${c.goldLines.examples.length} gold lines that changed`}
                </summary>
                <ul className="small">
                  {c.goldLines.examples.map((e) => (
                    <li key={e.instanceId}>
                      <code>{e.before ?? "(no line)"}</code> → <code>{e.after ?? "(no line)"}</code>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </>
        ) : (
          <dl className={styles.facts}>
            {FIGURES.map((f) => (
              <div key={f.label}>
                <dt>{f.label}</dt>
                <dd>{f.value(r.facts)}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      <ReleasePlots plots={plots} fileHref={fileHref} />

      <section className="panel" aria-labelledby="files-h">
        <h2 id="files-h">Files</h2>
        <p className="small muted">
          All under <code>{r.summary.folder}/</code>; <a href={fileHref("SHA256SUMS")}><code>SHA256SUMS</code></a> lists these, for <code>sha256sum -c SHA256SUMS</code>.
        </p>
        <div className="table-wrap">
          <table className={styles.files}>
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col">SHA-256</th>
              </tr>
            </thead>
            <tbody>
              {r.manifest.map((m) => (
                <tr key={m.path}>
                  <th scope="row">
                    <a href={fileHref(m.path)}>
                      <code>{m.path}</code>
                    </a>
                  </th>
                  <td className="num">{bytesText(m.bytes)}</td>
                  <td className={styles.sha}>
                    <code>{m.sha256}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {Object.entries(r.summary.losses).some(([, l]) => l.length > 0) && (
          <details>
            <summary>What the dataset formats cannot carry</summary>
            <ul className="small">
              {Object.entries(r.summary.losses).flatMap(([format, lost]) => lost.map((l, i) => <li key={`${format}-${i}`}>{`${format}: ${l}`}</li>))}
            </ul>
          </details>
        )}
      </section>
    </>
  );
}

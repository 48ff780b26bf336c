/**
 * The Gold tab: the summary and downloads, then one of four views (_views/): the lemma
 * review, the gold review, the review queue (the gold review, lowest agreement first,
 * unreviewed) and the review log.
 */
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/kernel";
import { type GoldPageData, type Paged, type ReviewLogRow, goldPageData, reviewLogPage } from "@/lib/server/gold";
import { catchUpFigures } from "@/lib/server/derived";
import { type AnnotatorNote, instanceNotes } from "@/lib/server/annotate";
import { plural } from "@/app/_ui/format";
import { returnInstanceAction, withdrawReturnAction } from "../flags/actions";
import { acceptAllAction, adjudicateAction, correctPosAction, decideLemmaAction, exclusionAction, keepAllAction, reviewedAction, undoAdjudicationAction } from "./actions";
import { GoldActionsProvider } from "./gold-actions";
import styles from "./gold.module.css";
import { InstanceView } from "./_views/instances";
import { LemmaView } from "./_views/lemmas";
import { LogView } from "./_views/log";
import { Downloads, ProblemsNotice, ProposalsNotice, Summary } from "./_views/overview";
import { goldQuery, href, type Search, VIEWS } from "./_views/params";

export const metadata: Metadata = { title: "Gold" };
export const dynamic = "force-dynamic";

export default async function GoldPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const { view, lemmaQuery, instanceQuery, logPage } = goldQuery(await searchParams);
  const db = getDb();
  const id = Number(projectId);
  let d: GoldPageData;
  let log: Paged<ReviewLogRow> | null = null;
  let notes = new Map<string, Map<string, AnnotatorNote>>();
  try {
    // The figures kept as answers change (#39): what a change to many instances queued is caught up with first, up to a bound.
    await catchUpFigures(db, actor, id);
    d = goldPageData(db, actor, id, { lemmas: lemmaQuery, instances: instanceQuery, only: view === "lemmas" ? "lemmas" : view === "log" ? "neither" : "instances" });
    if (view === "instances" || view === "queue") notes = instanceNotes(db, actor, id, d.instancePage.rows.map((r) => r.item.instanceId));
    if (view === "log") log = reviewLogPage(db, actor, id, logPage);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const base = `/projects/${id}/gold`;
  const download = `/api/projects/${id}/gold`;
  const s = d.summary;
  const now = new Date();

  return (
    <>
      <h1>Gold</h1>
      <p className="muted">
        {d.project.name} · derived from the stored responses as they are saved (plus any gold imported on the Datasets tab), through the lemma review, exclusions and PoS corrections below
        {d.queued > 0 && <> · {plural(d.queued, "instance")} still being brought up to date after a change; reload in a moment</>}
      </p>

      <Summary d={d} />
      <Downloads d={d} id={id} download={download} />
      <ProposalsNotice proposals={d.openProposals} base={base} download={download} />
      <ProblemsNotice d={d} download={download} />

      <nav className={styles.views} aria-label="Gold sections">
        {VIEWS.map((v) => (
          <Link key={v.view} href={href(base, { view: v.view === "lemmas" ? undefined : v.view })} aria-current={v.view === view ? "page" : undefined}>
            {v.label}
            <span className={styles.count}>
              {v.view === "lemmas" ? d.lemmas.forms : v.view === "instances" ? s.instances : v.view === "queue" ? s.instances - d.reviewedCount : ""}
            </span>
          </Link>
        ))}
      </nav>

      {/* The actions bound to the project here, on the server: the forms then work before the page's script runs (#38). */}
      <GoldActionsProvider
        actions={{
          decideLemma: decideLemmaAction.bind(null, id),
          acceptAll: acceptAllAction.bind(null, id),
          keepAll: keepAllAction.bind(null, id),
          exclusion: exclusionAction.bind(null, id),
          correctPos: correctPosAction.bind(null, id),
          reviewed: reviewedAction.bind(null, id),
          adjudicate: adjudicateAction.bind(null, id),
          undoAdjudication: undoAdjudicationAction.bind(null, id),
          returnInstance: returnInstanceAction.bind(null, id),
          withdrawReturn: withdrawReturnAction.bind(null, id),
        }}
      >
        {view === "lemmas" && <LemmaView d={d} base={base} q={lemmaQuery} now={now} />}
        {(view === "instances" || view === "queue") && <InstanceView d={d} base={base} q={instanceQuery} view={view} now={now} notes={notes} />}
      </GoldActionsProvider>
      {view === "log" && log && <LogView log={log} now={now} download={download} base={base} />}
    </>
  );
}

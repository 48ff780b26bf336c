import type { Metadata } from "next";
import { int, plural } from "../agreement/format";
import Link from "next/link";
import { notFound } from "next/navigation";
import { displayText } from "@/app/annotate/text";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import type { GoldItem } from "@/lib/lexsub/gold";
import { parseLexeltItem } from "@/lib/lexsub/types";
import { NotFoundError } from "@/lib/server/errors";
import {
  type GoldPageData,
  type InstanceOrder,
  type Paged,
  type ReviewInstance,
  type ReviewLogRow,
  type TypedAnswer,
  reviewLogPage,
} from "@/lib/server/gold-review";
import { derive } from "@/lib/server/runtime/derive-pool";
import { absoluteTime, relativeTime } from "../progress/time";
import { FilterForm } from "./filters";
import styles from "./gold.module.css";
import { type DecisionView, ResponseStrike, SubstituteCell } from "./adjudication";
import { type AnnotatorNote, instanceNotes } from "@/lib/server/flags";
import { ExclusionForm, PosForm, ReturnForm, ReviewedForm, WithdrawReturnForm } from "./instance-actions";
import { AcceptAllForm, KeepAllForm, LemmaRow, type LemmaRowData } from "./lemma-row";
import { LexeltSelect } from "../lexelt-select";

export const metadata: Metadata = { title: "Gold" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
type View = "lemmas" | "instances" | "queue" | "log";

const VIEWS: { view: View; label: string }[] = [
  { view: "lemmas", label: "Lemma review" },
  { view: "instances", label: "Gold review" },
  { view: "queue", label: "Review queue" },
  { view: "log", label: "Review log" },
];

/** The instance filters as the URL carries them. */
interface InstanceParams {
  lexelt: string;
  noMode: boolean;
  notInT: boolean;
  excluded: boolean;
  multiword: boolean;
  annotator: string;
  reviewed: "yes" | "no" | "";
  order: InstanceOrder;
  /** "" (no filter), "any", or a flag kind. */
  flag: string;
}

function one(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? "";
}
const flag = (v: string | string[] | undefined) => one(v) === "1";

/** The page's own URL with these query parameters (empty ones left out). */
function href(base: string, params: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === "" || v === false) continue;
    q.set(k, v === true ? "1" : String(v));
  }
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}

export default async function GoldPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const sp = await searchParams;
  const view: View = (["lemmas", "instances", "queue", "log"] as const).find((v) => v === one(sp.view)) ?? "lemmas";
  // The review queue: lowest agreement first, unreviewed instances, unless the URL says otherwise.
  const queue = view === "queue";
  const reviewedParam = one(sp.reviewed);
  const lemmaQuery = { contains: one(sp.q), open: flag(sp.open), changed: flag(sp.changed), page: one(sp.lp) };
  const instanceQuery: InstanceParams & { page: string; instance: string } = {
    lexelt: one(sp.lexelt).trim(),
    noMode: flag(sp.nomode),
    notInT: flag(sp.notint),
    excluded: flag(sp.excluded),
    multiword: flag(sp.mw),
    annotator: one(sp.annotator),
    reviewed: reviewedParam === "yes" || reviewedParam === "no" ? reviewedParam : queue && reviewedParam !== "any" ? "no" : "",
    order: one(sp.order) === "agreement" || (queue && one(sp.order) !== "corpus") ? "agreement" : "corpus",
    flag: one(sp.flag),
    page: one(sp.ip),
    instance: one(sp.instance),
  };
  const db = getDb();
  const id = Number(projectId);
  let d: GoldPageData;
  let log: Paged<ReviewLogRow> | null = null;
  let notes = new Map<string, Map<string, AnnotatorNote>>();
  try {
    // Derived on the worker (cached until the next change): the request thread only waits.
    d = await derive(db, { op: "goldPage", actor, projectId: id, query: { lemmas: lemmaQuery, instances: instanceQuery } });
    if (view === "instances" || view === "queue") notes = instanceNotes(db, actor, id, d.instancePage.rows.map((r) => r.item.instanceId));
    if (view === "log") log = reviewLogPage(db, actor, id, one(sp.gp));
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
        {d.project.name} · derived now from the stored responses (plus any gold imported on the Datasets tab), through the lemma review, exclusions and PoS corrections below
      </p>

      <section aria-labelledby="summary-heading">
        <h2 id="summary-heading" className={styles.srOnly}>Summary</h2>
        <dl className={styles.summary}>
          <Figure label="Instances" value={s.instances} note={s.excluded > 0 ? `${s.excluded} excluded` : "none excluded"} />
          <Figure label="Gold lines" value={s.goldLines} />
          <Figure label="In T (|H| ≥ 2)" value={s.inT} />
          <Figure label="Items with a mode" value={s.withMode} />
          <Figure label="mwgold lines" value={s.mwLines} />
          <Figure label="Multiword items" value={s.mwItems} />
          <Figure label="Excluded" value={s.excluded} />
          <Figure
            label="Unreviewed proposals"
            value={d.lemmas.openChanged}
            note={`forms the download rewrites · ${d.lemmas.open} of ${d.lemmas.forms} forms unreviewed`}
            tone={d.lemmas.openChanged > 0 ? "warn" : undefined}
          />
          <Figure label="Reviewed" value={d.reviewedCount} note={`of ${s.instances} instances`} />
          <Figure label="Adjudications" value={d.adjudicationCount} note="substitutes or responses struck or corrected" />
        </dl>
      </section>

      <div className={styles.downloads}>
        <a className="button" href={`${download}?file=gold`} download>
          Download gold <span className={styles.sub}>({plural(d.files.goldLines, "line")})</span>
        </a>
        <a className="button secondary" href={`${download}?file=mwgold`} download>
          Download mwgold <span className={styles.sub}>({plural(d.files.mwLines, "line")})</span>
        </a>
        <a className="button secondary" href={`${download}?file=log`} download>
          Review log (CSV)
        </a>
        <a className="button secondary" href={`${download}?file=logtsv`} download>
          Review log (TSV)
        </a>
        <a className="button secondary" href={`/api/projects/${id}/responses`} download>
          Responses with adjudication (TSV)
        </a>
        <a className={`small ${styles.foldLink}`} href={`${download}?file=gold&fold=1`} download title="Every form kept or proposed written in lower case (TV and tv become one entry); decided lemmas as recorded">
          Gold with case folded
        </a>
      </div>
      <AppliedNotice applied={d.applied} base={base} />

      {d.problemCount > 0 && (
        <div className="notice warn" role="status">
          <strong>{plural(d.problemCount, "problem")} in the derivation.</strong> Each says below what the gold files do about it (most leave out the answer or line named).
          <details className={styles.problems} open={d.problemCount <= 5}>
            <summary>{d.problemCount <= 5 ? "The problems" : d.problemCount > d.problems.length ? `The first ${d.problems.length} problems` : `All ${int(d.problemCount)} problems`}</summary>
            <ul>
              {d.problems.map((p, k) => (
                <li key={k}>
                  <code>
                    {p.lexelt} {p.instanceId}
                  </code>
                  {p.annotator && <> ({p.annotator})</>}: {p.message}
                </li>
              ))}
              {d.problemCount > d.problems.length && (
                <li>
                  … and {int(d.problemCount - d.problems.length)} more:{" "}
                  <a href={`${download}?file=problems`} download>
                    download all {int(d.problemCount)} (TSV)
                  </a>
                  .
                </li>
              )}
            </ul>
          </details>
        </div>
      )}

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

      {view === "lemmas" && <LemmaView d={d} base={base} q={lemmaQuery} now={now} projectId={id} />}
      {(view === "instances" || view === "queue") && <InstanceView d={d} base={base} q={instanceQuery} projectId={id} view={view} now={now} notes={notes} />}
      {view === "log" && log && <LogView log={log} now={now} download={download} base={base} />}
    </>
  );
}

/** Proposals listed on the page; the rest are counted. */
const LISTED_PROPOSALS = 50;

/** What the gold download applies that nobody reviewed: each proposal, how often. */
function AppliedNotice({ applied, base }: { applied: GoldPageData["applied"]; base: string }) {
  if (applied.length === 0) {
    return <p className={`muted small ${styles.appliedNone}`}>The download applies no unreviewed proposal: every form is written as typed (case kept) or as decided in the lemma review.</p>;
  }
  const uses = applied.reduce((n, a) => n + a.count, 0);
  return (
    <div className={`notice warn ${styles.applied}`} role="status" aria-labelledby="applied-heading">
      <strong id="applied-heading">
        The download applies {plural(applied.length, "unreviewed proposal")} ({plural(uses, "answer")} rewritten).
      </strong>{" "}
      Each maps a form WordNet knows only as an inflection to its lemma. <Link href={href(base, { open: true, changed: true })}>Review them</Link>, or keep them all as typed.
      <details className={styles.problems} open={applied.length <= 8}>
        <summary>{applied.length <= 8 ? "The proposals applied" : `All ${applied.length} proposals applied`}</summary>
        <ul className={styles.appliedList}>
          {applied.slice(0, LISTED_PROPOSALS).map((a) => (
            <li key={`${a.pos} ${a.form}`}>
              <code>{a.form}</code> → <code>{a.lemma}</code> <span className="muted small">({a.pos || "no PoS"}) ×{a.count}</span>
            </li>
          ))}
          {applied.length > LISTED_PROPOSALS && <li>… and {applied.length - LISTED_PROPOSALS} more (the lemma review lists them all).</li>}
        </ul>
      </details>
    </div>
  );
}

function Figure({ label, value, note, tone }: { label: string; value: number; note?: string; tone?: "warn" }) {
  return (
    <div className={`${styles.figure} ${tone === "warn" ? styles.figureWarn : ""}`}>
      <dt className="muted small">{label}</dt>
      <dd>
        <span className={styles.big}>{value}</span>
        {note && <span className={`muted small ${styles.note}`}>{note}</span>}
      </dd>
    </div>
  );
}

function Pager({ page, hrefFor, what, label }: { page: Paged<unknown>; hrefFor: (p: number) => string; what: [string, string]; label: string }) {
  const from = page.total === 0 ? 0 : page.start + 1;
  const to = page.start + page.rows.length;
  return (
    <nav className={styles.pager} aria-label={label}>
      <span className="muted small">
        {page.total === 0 ? `No ${what[1]}` : `${from}–${to} of ${plural(page.total, what[0], what[1])}`}
      </span>
      {page.pages > 1 && (
        <span className={styles.pageLinks}>
          {page.page > 1 ? <Link href={hrefFor(page.page - 1)} scroll={false} rel="prev">← Previous</Link> : <span className="muted">← Previous</span>}
          <span className="small">
            Page {page.page} of {page.pages}
          </span>
          {page.page < page.pages ? <Link href={hrefFor(page.page + 1)} scroll={false} rel="next">Next →</Link> : <span className="muted">Next →</span>}
        </span>
      )}
    </nav>
  );
}

function LemmaView({
  d,
  base,
  q,
  now,
  projectId,
}: {
  d: GoldPageData;
  base: string;
  q: { contains: string; open: boolean; changed: boolean };
  now: Date;
  projectId: number;
}) {
  const page = d.lemmaPage;
  const hrefFor = (p: number) => href(base, { q: q.contains, open: q.open, changed: q.changed, lp: p > 1 ? p : undefined });
  const rows: LemmaRowData[] = page.rows.map((r) => ({
    form: r.form,
    count: r.count,
    pos: r.pos,
    proposed: r.proposed,
    proposals: r.proposals,
    changed: r.changed,
    decision: r.decision,
    lemma: r.lemma,
    decided: r.decision ? `${r.decidedBy ?? "command line"} · ${r.decidedAt ? relativeTime(r.decidedAt, now) : ""}` : null,
    decidedTitle: r.decidedAt ? absoluteTime(r.decidedAt) : null,
  }));
  return (
    <section aria-labelledby="lemmas-heading">
      <h2 id="lemmas-heading">Lemma review</h2>
      <p className="muted small">
        Every distinct form the annotators typed (one row for every spelling that differs only in case), with the lemma WordNet proposes for the target&apos;s PoS. A form WordNet has as a word of its own is never changed; an inflected form (films, took, mice) is proposed only as a lemma WordNet has. Forms with a proposal come first (marked by a bar at the left), then by frequency. Until a form is reviewed the gold uses the proposal; everything else is written as typed, case included. Keep the form as typed when the lemma would change the meaning; type another lemma and press Enter to override (case is kept as typed).
      </p>
      <div className={styles.toolbar}>
        <FilterForm action={base} view="lemmas" label="Filter forms">
          <div className={styles.filterField}>
            <label htmlFor="lemma-q">Form contains</label>
            <input id="lemma-q" name="q" type="search" defaultValue={q.contains} autoComplete="off" spellCheck={false} />
          </div>
          <label className={styles.check}>
            <input type="checkbox" name="open" value="1" defaultChecked={q.open} /> only open
          </label>
          <label className={styles.check}>
            <input type="checkbox" name="changed" value="1" defaultChecked={q.changed} /> only changed
          </label>
        </FilterForm>
        <div className={styles.bulk}>
          <AcceptAllForm projectId={projectId} open={d.lemmas.open} />
          <KeepAllForm projectId={projectId} open={d.lemmas.open} />
        </div>
      </div>
      <Pager page={page} hrefFor={hrefFor} what={["form", "forms"]} label="Lemma review pages" />
      {page.total > 0 && (
        <div className={`table-wrap ${styles.lemmaWrap}`}>
          <table aria-labelledby="lemmas-heading" className={styles.lemmas}>
            <thead>
              <tr>
                <th scope="col">Form</th>
                <th scope="col" className="num">Count</th>
                <th scope="col">PoS</th>
                <th scope="col">Proposed</th>
                <th scope="col">In the gold</th>
                <th scope="col">Decision</th>
                <th scope="col">Decide</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, k) => (
                <LemmaRow key={r.form} projectId={projectId} row={r} index={page.start + k} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.total === 0 && (
        <p className="muted">{d.lemmas.forms === 0 ? "No substitutes typed yet: the review fills as responses come in." : "No form matches the filter."}</p>
      )}
      {page.pages > 1 && <Pager page={page} hrefFor={hrefFor} what={["form", "forms"]} label="Lemma review pages, bottom" />}
    </section>
  );
}

function InstanceView({
  d,
  base,
  q,
  projectId,
  view,
  now,
  notes,
}: {
  d: GoldPageData;
  base: string;
  q: InstanceParams;
  projectId: number;
  view: "instances" | "queue";
  now: Date;
  notes: Map<string, Map<string, AnnotatorNote>>;
}) {
  const page = d.instancePage;
  const queue = view === "queue";
  const hrefFor = (p: number) =>
    href(base, {
      view,
      lexelt: q.lexelt,
      nomode: q.noMode,
      notint: q.notInT,
      excluded: q.excluded,
      mw: q.multiword,
      annotator: q.annotator,
      // The queue's defaults (unreviewed, by agreement) stay implicit; other choices are written out.
      reviewed: queue ? (q.reviewed === "no" ? undefined : q.reviewed || "any") : q.reviewed,
      order: queue ? (q.order === "agreement" ? undefined : q.order) : q.order === "agreement" ? q.order : undefined,
      flag: q.flag || undefined,
      ip: p > 1 ? p : undefined,
    });
  return (
    <section aria-labelledby="instances-heading">
      <h2 id="instances-heading">{queue ? "Review queue" : "Gold review"}</h2>
      <p className="muted small">
        {queue ? (
          <>
            The instances where the annotators agree least come first (per-item pairwise agreement after your adjudications; instances without one — not in T, or fewer than two annotators with substitutes — come last). Strike or correct a single substitute, strike a whole response, then mark the instance reviewed: it leaves the queue.
          </>
        ) : (
          <>
            Each instance with every annotator&apos;s answer, the gold line derived from them and the mwgold line. Strike or correct one substitute (or a whole response) under <em>Adjudicate</em>: the annotator&apos;s answer is kept, the gold counts your decision. Excluded instances stay here but are left out of the files and of agreement; a corrected PoS is written as <code>lemma.ori_pos.pos</code>.
          </>
        )}
      </p>
      <div className={styles.toolbar}>
        <FilterForm action={base} view={view} label="Filter instances">
          <div className={styles.filterField}>
            <label htmlFor="inst-lexelt">Lexelt</label>
            {d.lexelts.length > 0 || d.lexeltCount === 0 ? (
              <LexeltSelect id="inst-lexelt" lexelts={d.lexelts} value={q.lexelt} />
            ) : (
              // Too many to list: the item is typed (all lexelts when empty).
              <input id="inst-lexelt" name="lexelt" type="search" defaultValue={q.lexelt} placeholder={`one of ${d.lexeltCount}, e.g. bright.a`} />
            )}
          </div>
          <label className={styles.check}>
            <input type="checkbox" name="nomode" value="1" defaultChecked={q.noMode} /> no mode
          </label>
          <label className={styles.check}>
            <input type="checkbox" name="notint" value="1" defaultChecked={q.notInT} /> not in T
          </label>
          <label className={styles.check}>
            <input type="checkbox" name="excluded" value="1" defaultChecked={q.excluded} /> excluded
          </label>
          <div className={styles.filterField}>
            <label htmlFor="inst-annotator">Annotator</label>
            <select id="inst-annotator" name="annotator" defaultValue={q.annotator}>
              <option value="">Anyone</option>
              {d.annotators.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.filterField}>
            <label htmlFor="inst-reviewed">Reviewed</label>
            <select id="inst-reviewed" name="reviewed" defaultValue={q.reviewed === "" ? (queue ? "any" : "") : q.reviewed}>
              <option value={queue ? "any" : ""}>Either</option>
              <option value="no">Not reviewed</option>
              <option value="yes">Reviewed</option>
            </select>
          </div>
          <div className={styles.filterField}>
            <label htmlFor="inst-flag">Flag</label>
            <select id="inst-flag" name="flag" defaultValue={q.flag}>
              <option value="">Any or none</option>
              <option value="any">Flagged</option>
              <option value="unsure">Flagged: unsure</option>
              <option value="typo">Flagged: typo in the sentence</option>
              <option value="name">Flagged: part of a name?</option>
              <option value="other">Flagged: other</option>
            </select>
          </div>
          <div className={styles.filterField}>
            <label htmlFor="inst-order">Order</label>
            <select id="inst-order" name="order" defaultValue={q.order}>
              <option value="corpus">As in the corpus</option>
              <option value="agreement">Lowest agreement first</option>
            </select>
          </div>
          <label className={styles.check}>
            <input type="checkbox" name="mw" value="1" defaultChecked={q.multiword} /> has multiword
          </label>
        </FilterForm>
      </div>
      <Pager page={page} hrefFor={hrefFor} what={["instance", "instances"]} label="Gold review pages" />
      {page.total === 0 && <p className="muted">{d.summary.instances === 0 ? "No instances yet: load lexelt XML on the Corpus tab." : "No instance matches the filter."}</p>}
      <ol className={`plain ${styles.instances}`} start={page.start + 1}>
        {page.rows.map((r) => (
          <li key={r.item.instanceId}>
            <InstanceCard r={r} projectId={projectId} now={now} notes={notes.get(r.item.instanceId)} />
          </li>
        ))}
      </ol>
      {page.pages > 1 && <Pager page={page} hrefFor={hrefFor} what={["instance", "instances"]} label="Gold review pages, bottom" />}
    </section>
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

/** One annotator's answer: each substitute as typed with its adjudication, and what the gold counts when that differs. */
function Answer({
  resp,
  typed,
  projectId,
  instanceId,
  decisions,
  responseStruck,
}: {
  resp: GoldItem["responses"][number] | undefined;
  typed: TypedAnswer;
  projectId: number;
  instanceId: string;
  decisions: Map<string, DecisionView>;
  responseStruck: boolean;
}) {
  if (typed.kind === "NAME") return <span className={`tag ${styles.kind} ${responseStruck ? styles.struck : ""}`}>NAME</span>;
  if (typed.kind === "NIL") return <span className={`tag ${styles.kindNil} ${responseStruck ? styles.struck : ""}`}>NIL</span>;
  const subs = resp?.substitutes ?? [];
  const typedSubs = typed.substitutes.map((t) => t.trim());
  return (
    <>
      <ul className={styles.subList} aria-label={`${typed.annotator}'s substitutes`}>
        {typedSubs.map((t) => (
          <SubstituteCell
            key={t}
            projectId={projectId}
            instanceId={instanceId}
            annotator={typed.annotator}
            substitute={t}
            decision={decisions.get(t) ?? null}
            responseStruck={responseStruck}
          />
        ))}
      </ul>
      {!responseStruck && !sameList(subs, typedSubs) && (
        <div className={`muted small ${styles.inGold}`}>in the gold: {subs.length === 0 ? "nothing" : subs.join("; ")}</div>
      )}
    </>
  );
}

/** A gold line that wraps between entries (after each ';') rather than inside one. */
function Breakable({ line }: { line: string }) {
  const parts = line.split(";");
  return (
    <>
      {parts.map((p, k) => (
        <span key={k}>
          {p}
          {k < parts.length - 1 && (
            <>
              ;<wbr />
            </>
          )}
        </span>
      ))}
    </>
  );
}

function decisionView(a: ReviewInstance["adjudications"][number], now: Date): DecisionView {
  return {
    id: a.id,
    action: a.action,
    substitute: a.substitute,
    value: a.value,
    reason: a.reason,
    decided: `${a.decidedBy ?? "command line"} · ${relativeTime(a.decidedAt, now)}`,
    decidedTitle: absoluteTime(a.decidedAt),
    stale: a.stale,
  };
}

const FLAG_NAMES: Record<string, string> = { unsure: "unsure", typo: "typo in the sentence", name: "part of a name?", other: "other" };

/** An annotator's flag and note, and an open return, beside their answer. */
function NoteCell({ note, projectId, instanceId, annotator }: { note: AnnotatorNote | undefined; projectId: number; instanceId: string; annotator: string }) {
  if (!note || (note.flag === null && note.note === "" && note.returned === null)) return <span className="muted">—</span>;
  return (
    <>
      {note.flag && <span className={`tag ${styles.warnBadge}`}>flag: {FLAG_NAMES[note.flag] ?? note.flag}</span>}
      {note.note && <div className={`small ${styles.noteText}`}>“{note.note}”</div>}
      {note.returned !== null && (
        <div className="small">
          <span className={`tag ${styles.plainBadge}`}>returned</span> <span className="muted">{note.returned}</span>
          <WithdrawReturnForm projectId={projectId} instanceId={instanceId} annotator={annotator} />
        </div>
      )}
    </>
  );
}

function InstanceCard({ r, projectId, now, notes }: { r: ReviewInstance; projectId: number; now: Date; notes?: Map<string, AnnotatorNote> }) {
  // Active decisions by annotator: the whole-response strike, and by substitute as typed.
  const active = new Map<string, { response: DecisionView | null; subs: Map<string, DecisionView> }>();
  for (const a of r.adjudications) {
    if (a.undoneAt !== null) continue;
    let e = active.get(a.annotator);
    if (!e) active.set(a.annotator, (e = { response: null, subs: new Map() }));
    if (a.action === "strike-response") e.response = decisionView(a, now);
    else if (a.substitute !== null) e.subs.set(a.substitute.trim(), decisionView(a, now));
  }
  const it = r.item;
  const byAnnotator = new Map(it.responses.map((x) => [x.annotator, x]));
  const parsed = parseLexeltItem(it.originalLexelt);
  const originalPos = parsed?.pos ?? "";
  const corrected = it.lexelt !== it.originalLexelt ? it.pos : null;
  const headingId = `inst-${it.instanceId}`;
  return (
    <article className={`panel ${styles.instance} ${it.excluded !== null ? styles.excluded : ""}`} aria-labelledby={headingId}>
      <header className={styles.instanceHead}>
        <h3 id={headingId}>
          <span className={styles.lexelt}>{it.lexelt}</span> <span className={styles.instanceId}>{it.instanceId}</span>
        </h3>
        <ul className={`plain ${styles.badges}`} aria-label="Status">
          {it.excluded !== null && <li className={`tag ${styles.badBadge}`}>excluded</li>}
          <li className={`tag ${it.inT ? styles.okBadge : styles.plainBadge}`}>{it.inT ? "in T" : "not in T"}</li>
          <li className={`tag ${styles.plainBadge}`}>|H| = {it.size}</li>
          <li className={`tag ${it.mode ? styles.okBadge : styles.plainBadge}`}>{it.mode ? `mode: ${it.mode}` : "no mode"}</li>
          {corrected && <li className={`tag ${styles.warnBadge}`}>PoS {originalPos} → {corrected}</li>}
          {it.multiword && <li className={`tag ${styles.plainBadge}`}>multiword: {it.multiword}</li>}
          {r.pairwise !== null && <li className={`tag ${styles.plainBadge}`}>agreement {r.pairwise.toFixed(2)}</li>}
          {r.reviewed && <li className={`tag ${styles.okBadge}`}>reviewed</li>}
        </ul>
      </header>
      {it.excluded !== null && <p className={`small ${styles.reason}`}>Excluded: {it.excluded}</p>}
      <p className={styles.sentence} lang="en">
        {displayText(r.before)}
        <mark>{r.head}</mark>
        {displayText(r.after)}
      </p>
      <div className={styles.instanceBody}>
        <div className={styles.answers}>
          {r.typed.length === 0 ? (
            <p className="muted small">No answers yet.</p>
          ) : (
            <div className={styles.tableScroll}>
            <table className={styles.answerTable} aria-label={`Answers for ${it.instanceId}`}>
              <thead>
                <tr>
                  <th scope="col">Annotator</th>
                  <th scope="col">Substitutes</th>
                  <th scope="col">Multiword</th>
                  <th scope="col">Response</th>
                  <th scope="col">Flag / note</th>
                </tr>
              </thead>
              <tbody>
                {r.typed.map((t) => {
                  const resp = byAnnotator.get(t.annotator);
                  const decided = active.get(t.annotator);
                  const struck = decided?.response != null;
                  return (
                    <tr key={t.annotator} className={struck ? styles.struckRow : undefined}>
                      <th scope="row">{t.annotator}</th>
                      <td data-label="Substitutes">
                        <Answer resp={resp} typed={t} projectId={projectId} instanceId={it.instanceId} decisions={decided?.subs ?? new Map()} responseStruck={struck} />
                      </td>
                      <td data-label="Multiword">{resp?.multiword ?? (t.multiword ? t.multiword : <span className="muted">—</span>)}</td>
                      <td>
                        <ResponseStrike projectId={projectId} instanceId={it.instanceId} annotator={t.annotator} decision={decided?.response ?? null} />
                      </td>
                      <td className={styles.noteCell}>
                        <NoteCell note={notes?.get(t.annotator)} projectId={projectId} instanceId={it.instanceId} annotator={t.annotator} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            </div>
          )}
        </div>
        <dl className={styles.lines}>
          <dt>gold</dt>
          <dd>
            {it.line ? <code className={styles.line}><Breakable line={it.line} /></code> : <span className="muted">no entry, no line</span>}
            {it.excluded !== null && it.line && <div className="muted small">not written: excluded</div>}
          </dd>
          <dt>mwgold</dt>
          <dd>{it.mwLine ? <code className={styles.line}><Breakable line={it.mwLine} /></code> : <span className="muted">no multiword given</span>}</dd>
        </dl>
      </div>
      <div className={styles.instanceActions}>
        <ReviewedForm
          projectId={projectId}
          instanceId={it.instanceId}
          reviewed={r.reviewed ? { by: r.reviewed.by ?? "command line", when: relativeTime(r.reviewed.at, now), title: absoluteTime(r.reviewed.at) } : null}
        />
        <ExclusionForm projectId={projectId} instanceId={it.instanceId} excluded={it.excluded} />
        {parsed && <PosForm projectId={projectId} instanceId={it.instanceId} originalPos={originalPos} correctedPos={corrected} />}
        {r.typed.length > 0 && <ReturnForm projectId={projectId} instanceId={it.instanceId} annotators={r.typed.map((t) => t.annotator)} />}
      </div>
    </article>
  );
}

const KIND_WORDS: Record<ReviewLogRow["kind"], string> = {
  lemma: "lemma",
  exclusion: "exclusion",
  pos: "PoS",
  strike: "adjudication",
  correct: "adjudication",
  "strike-response": "adjudication",
  undo: "adjudication",
  reviewed: "review mark",
  return: "return",
};

function describeLog(e: ReviewLogRow): { what: string; detail: string } {
  if (e.kind === "lemma") return { what: e.decision === "reset" ? "lemma reset" : `lemma ${e.decision === "kept" ? "kept as typed" : e.decision}`, detail: e.value };
  if (e.kind === "exclusion") return { what: e.decision, detail: e.value };
  if (e.kind === "pos") return { what: e.decision === "undone" ? "PoS as loaded" : "PoS corrected", detail: e.value };
  if (e.kind === "reviewed") return { what: e.decision, detail: "" };
  if (e.kind === "return") return { what: e.decision, detail: `${e.annotator}: “${e.reason}”` };
  const sub = e.substitute ? `“${e.substitute}”${e.value ? ` → “${e.value}”` : ""}` : "whole response";
  return { what: e.decision, detail: `${e.annotator}: ${sub}${e.reason ? ` — ${e.reason}` : ""}` };
}

function LogView({ log, now, download, base }: { log: Paged<ReviewLogRow>; now: Date; download: string; base: string }) {
  const hrefFor = (p: number) => href(base, { view: "log", gp: p > 1 ? p : undefined });
  return (
    <section aria-labelledby="log-heading">
      <h2 id="log-heading">Review log</h2>
      <p className="muted small">
        Every decision — lemmas, exclusions, PoS corrections, strikes and corrections of answers, undos, review marks — newest first. Download the whole log as{" "}
        <a href={`${download}?file=log`} download>
          CSV
        </a>{" "}
        or{" "}
        <a href={`${download}?file=logtsv`} download>
          TSV
        </a>
        .
      </p>
      <Pager page={log} hrefFor={hrefFor} what={["decision", "decisions"]} label="Review log pages" />
      {log.total === 0 ? (
        <p className="muted">No decisions yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="log-heading" className={styles.log}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Kind</th>
                <th scope="col">What</th>
                <th scope="col">Form or instance</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {log.rows.map((e, k) => {
                const { what, detail } = describeLog(e);
                return (
                  <tr key={log.start + k}>
                    <td>
                      <time dateTime={e.at.toISOString()} title={absoluteTime(e.at)}>
                        {relativeTime(e.at, now)}
                      </time>
                    </td>
                    <td>{e.by ?? <span className="muted">command line</span>}</td>
                    <td>{KIND_WORDS[e.kind]}</td>
                    <td>{what}</td>
                    <td>
                      <code>{e.target}</code>
                    </td>
                    <td>{detail || <span className="muted">—</span>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {log.pages > 1 && <Pager page={log} hrefFor={hrefFor} what={["decision", "decisions"]} label="Review log pages, bottom" />}
    </section>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { displayText } from "@/app/annotate/text";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import type { GoldItem } from "@/lib/lexsub/gold";
import { parseLexeltItem } from "@/lib/lexsub/types";
import { NotFoundError } from "@/lib/server/errors";
import { type ReviewLogEntry, goldReviewHistory } from "@/lib/server/gold";
import { type GoldPageData, type Paged, type ReviewInstance, type TypedAnswer, goldPageData } from "@/lib/server/gold-review";
import { absoluteTime, relativeTime } from "../progress/time";
import { FilterForm } from "./filters";
import styles from "./gold.module.css";
import { type AnnotatorNote, instanceNotes } from "@/lib/server/flags";
import { ExclusionForm, PosForm, ReturnForm } from "./instance-actions";
import { AcceptAllForm, KeepAllForm, LemmaRow, type LemmaRowData } from "./lemma-row";

export const metadata: Metadata = { title: "Gold" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
type View = "lemmas" | "instances" | "log";

const VIEWS: { view: View; label: string }[] = [
  { view: "lemmas", label: "Lemma review" },
  { view: "instances", label: "Gold review" },
  { view: "log", label: "Review log" },
];

function one(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? "";
}
const flag = (v: string | string[] | undefined) => one(v) === "1";

function plural(n: number, word: string, many = word + "s"): string {
  return `${n} ${n === 1 ? word : many}`;
}

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
  const view: View = (["lemmas", "instances", "log"] as const).find((v) => v === one(sp.view)) ?? "lemmas";
  const lemmaQuery = { contains: one(sp.q), open: flag(sp.open), changed: flag(sp.changed), page: one(sp.lp) };
  const instanceQuery = {
    lexelt: one(sp.lexelt),
    noMode: flag(sp.nomode),
    notInT: flag(sp.notint),
    excluded: flag(sp.excluded),
    multiword: flag(sp.mw),
    page: one(sp.ip),
    instance: one(sp.instance),
  };
  const db = getDb();
  const id = Number(projectId);
  let d: GoldPageData;
  let log: ReviewLogEntry[] = [];
  let notes = new Map<string, Map<string, AnnotatorNote>>();
  try {
    d = goldPageData(db, actor, id, { lemmas: lemmaQuery, instances: instanceQuery });
    if (view === "instances") notes = instanceNotes(db, actor, id, d.instancePage.rows.map((r) => r.item.instanceId));
    if (view === "log") log = goldReviewHistory(db, actor, id, 100);
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
        {d.project.name} · derived now from the stored responses, through the lemma review, exclusions and PoS corrections below
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
        <a className={`small ${styles.foldLink}`} href={`${download}?file=gold&fold=1`} download title="Every form kept or proposed written in lower case (TV and tv become one entry); decided lemmas as recorded">
          Gold with case folded
        </a>
      </div>
      <AppliedNotice applied={d.applied} base={base} />

      {d.problems.length > 0 && (
        <div className="notice warn" role="status">
          <strong>{plural(d.problems.length, "problem")} in the derivation.</strong> The files are written without what each one names.
          <details className={styles.problems} open={d.problems.length <= 5}>
            <summary>{d.problems.length <= 5 ? "The problems" : `All ${d.problems.length} problems`}</summary>
            <ul>
              {d.problems.slice(0, 500).map((p, k) => (
                <li key={k}>
                  <code>
                    {p.lexelt} {p.instanceId}
                  </code>
                  {p.annotator && <> ({p.annotator})</>}: {p.message}
                </li>
              ))}
              {d.problems.length > 500 && <li>… and {d.problems.length - 500} more.</li>}
            </ul>
          </details>
        </div>
      )}

      <nav className={styles.views} aria-label="Gold sections">
        {VIEWS.map((v) => (
          <Link key={v.view} href={href(base, { view: v.view === "lemmas" ? undefined : v.view })} aria-current={v.view === view ? "page" : undefined}>
            {v.label}
            <span className={styles.count}>
              {v.view === "lemmas" ? d.lemmas.forms : v.view === "instances" ? s.instances : ""}
            </span>
          </Link>
        ))}
      </nav>

      {view === "lemmas" && <LemmaView d={d} base={base} q={lemmaQuery} now={now} projectId={id} />}
      {view === "instances" && <InstanceView d={d} base={base} q={instanceQuery} projectId={id} notes={notes} />}
      {view === "log" && <LogView log={log} now={now} download={`${download}?file=log`} />}
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
  notes,
}: {
  d: GoldPageData;
  base: string;
  q: { lexelt: string; noMode: boolean; notInT: boolean; excluded: boolean; multiword: boolean };
  projectId: number;
  notes: Map<string, Map<string, AnnotatorNote>>;
}) {
  const page = d.instancePage;
  const hrefFor = (p: number) =>
    href(base, { view: "instances", lexelt: q.lexelt, nomode: q.noMode, notint: q.notInT, excluded: q.excluded, mw: q.multiword, ip: p > 1 ? p : undefined });
  return (
    <section aria-labelledby="instances-heading">
      <h2 id="instances-heading">Gold review</h2>
      <p className="muted small">
        Each instance with every annotator&apos;s answer, the gold line derived from them and the mwgold line. Excluded instances stay here but are left out of the files and of agreement; a corrected PoS is written as <code>lemma.ori_pos.pos</code>.
      </p>
      <div className={styles.toolbar}>
        <FilterForm action={base} view="instances" label="Filter instances">
          <div className={styles.filterField}>
            <label htmlFor="inst-lexelt">Lexelt</label>
            <select id="inst-lexelt" name="lexelt" defaultValue={q.lexelt}>
              <option value="">All lexelts</option>
              {d.lexelts.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
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
            <InstanceCard r={r} projectId={projectId} notes={notes.get(r.item.instanceId)} />
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

function Answer({ resp, typed }: { resp: GoldItem["responses"][number] | undefined; typed: TypedAnswer }) {
  if (typed.kind === "NAME") return <span className={`tag ${styles.kind}`}>NAME</span>;
  if (typed.kind === "NIL") return <span className={`tag ${styles.kindNil}`}>NIL</span>;
  const subs = resp?.substitutes ?? [];
  const typedSubs = typed.substitutes.map((t) => t.trim());
  return (
    <>
      {subs.length === 0 ? <span className="muted">none</span> : subs.join("; ")}
      {!sameList(subs, typedSubs) && typedSubs.length > 0 && <div className="muted small">typed: {typedSubs.join("; ")}</div>}
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

const FLAG_NAMES: Record<string, string> = { unsure: "unsure", typo: "typo in the sentence", name: "part of a name?", other: "other" };

/** An annotator's flag and note, and an open return, beside their answer. */
function NoteCell({ note }: { note: AnnotatorNote | undefined }) {
  if (!note || (note.flag === null && note.note === "" && note.returned === null)) return <span className="muted">—</span>;
  return (
    <>
      {note.flag && <span className={`tag ${styles.warnBadge}`}>flag: {FLAG_NAMES[note.flag] ?? note.flag}</span>}
      {note.note && <div className={`small ${styles.noteText}`}>“{note.note}”</div>}
      {note.returned !== null && (
        <div className="small">
          <span className={`tag ${styles.plainBadge}`}>returned</span> <span className="muted">{note.returned}</span>
        </div>
      )}
    </>
  );
}

function InstanceCard({ r, projectId, notes }: { r: ReviewInstance; projectId: number; notes?: Map<string, AnnotatorNote> }) {
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
                  <th scope="col">Flag / note</th>
                </tr>
              </thead>
              <tbody>
                {r.typed.map((t) => {
                  const resp = byAnnotator.get(t.annotator);
                  return (
                    <tr key={t.annotator}>
                      <th scope="row">{t.annotator}</th>
                      <td>
                        <Answer resp={resp} typed={t} />
                      </td>
                      <td>{resp?.multiword ?? (t.multiword ? t.multiword : <span className="muted">—</span>)}</td>
                      <td className={styles.noteCell}>
                        <NoteCell note={notes?.get(t.annotator)} />
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
        <ExclusionForm projectId={projectId} instanceId={it.instanceId} excluded={it.excluded} />
        {parsed && <PosForm projectId={projectId} instanceId={it.instanceId} originalPos={originalPos} correctedPos={corrected} />}
        {r.typed.length > 0 && <ReturnForm projectId={projectId} instanceId={it.instanceId} annotators={r.typed.map((t) => t.annotator)} />}
      </div>
    </article>
  );
}

function describeLog(e: ReviewLogEntry): { what: string; value: string } {
  if (e.kind === "lemma") {
    if (e.value === null) return { what: "lemma reset", value: "" };
    try {
      const v = JSON.parse(e.value) as { lemma: string; decision: string };
      return { what: `lemma ${v.decision === "kept" ? "kept as typed" : v.decision}`, value: v.lemma };
    } catch {
      return { what: "lemma", value: e.value };
    }
  }
  if (e.kind === "exclusion") return e.value === null ? { what: "put back", value: "" } : { what: "excluded", value: e.value };
  return e.value === null ? { what: "PoS as loaded", value: "" } : { what: "PoS corrected", value: e.value };
}

function LogView({ log, now, download }: { log: ReviewLogEntry[]; now: Date; download: string }) {
  return (
    <section aria-labelledby="log-heading">
      <h2 id="log-heading">Review log</h2>
      <p className="muted small">
        Every decision, newest first{log.length === 100 ? " (the latest 100 here; the CSV holds them all)" : ""}. <a href={download} download>Download the whole log as CSV</a>.
      </p>
      {log.length === 0 ? (
        <p className="muted">No decisions yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="log-heading" className={styles.log}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Form or instance</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {log.map((e, k) => {
                const { what, value } = describeLog(e);
                return (
                  <tr key={k}>
                    <td>
                      <time dateTime={e.at.toISOString()} title={absoluteTime(e.at)}>
                        {relativeTime(e.at, now)}
                      </time>
                    </td>
                    <td>{e.by ?? <span className="muted">command line</span>}</td>
                    <td>{what}</td>
                    <td>
                      <code>{e.target}</code>
                    </td>
                    <td>{value || <span className="muted">—</span>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

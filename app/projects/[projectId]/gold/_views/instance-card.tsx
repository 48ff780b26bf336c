/** One instance on the gold review: the sentence, every annotator's answer with its adjudication, the gold and mwgold lines, the instance's decisions. */
import { displayText } from "@/app/_ui/display-text";
import { listAnswers } from "@/app/_ui/answer-text";
import { absoluteTime, relativeTime } from "@/app/_ui/time";
import type { GoldItem } from "@/lib/lexsub/gold";
import { parseLexeltItem } from "@/lib/lexsub/types";
import type { AnnotatorNote } from "@/lib/server/annotate";
import type { ReviewInstance, TypedAnswer } from "@/lib/server/gold";
import { type DecisionView, MultiwordCell, ResponseStrike, SubstituteCell } from "../adjudication";
import styles from "../gold.module.css";
import { ExclusionForm, PosForm, ReturnForm, ReviewedForm, WithdrawReturnForm } from "../instance-actions";
import { KeepPlace } from "../keep-place";

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

/** One annotator's answer: each substitute as typed with its adjudication, and what the gold counts when that differs. */
function Answer({
  resp,
  typed,
  instanceId,
  decisions,
  responseStruck,
}: {
  resp: GoldItem["responses"][number] | undefined;
  typed: TypedAnswer;
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
            instanceId={instanceId}
            annotator={typed.annotator}
            substitute={t}
            decision={decisions.get(t) ?? null}
            responseStruck={responseStruck}
          />
        ))}
      </ul>
      {!responseStruck && !sameList(subs, typedSubs) && (
        <div className={`muted small ${styles.inGold}`}>in the gold: {subs.length === 0 ? "nothing" : listAnswers(subs)}</div>
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
function NoteCell({ note, instanceId, annotator }: { note: AnnotatorNote | undefined; instanceId: string; annotator: string }) {
  if (!note || (note.flag === null && note.note === "" && note.returned === null)) return <span className="muted">—</span>;
  return (
    <>
      {note.flag && <span className={`tag ${styles.warnBadge}`}>flag: {FLAG_NAMES[note.flag] ?? note.flag}</span>}
      {note.note && <div className={`small ${styles.noteText}`}>“{note.note}”</div>}
      {note.returned !== null && (
        <div className="small">
          <span className={`tag ${styles.plainBadge}`}>returned</span> <span className="muted">{note.returned}</span>
          <WithdrawReturnForm instanceId={instanceId} annotator={annotator} />
        </div>
      )}
    </>
  );
}

/** `rank`: in agreement order, the agreement the card is ranked by (held in place while deciding on it); undefined otherwise. */
export function InstanceCard({ r, now, notes, rank }: { r: ReviewInstance; now: Date; notes?: Map<string, AnnotatorNote>; rank?: number | null }) {
  // Active decisions by annotator: the whole-response strike, the multiword phrase's, and by substitute as typed.
  const active = new Map<string, { response: DecisionView | null; multiword: DecisionView | null; subs: Map<string, DecisionView> }>();
  for (const a of r.adjudications) {
    if (a.undoneAt !== null) continue;
    let e = active.get(a.annotator);
    if (!e) active.set(a.annotator, (e = { response: null, multiword: null, subs: new Map() }));
    if (a.action === "strike-response") e.response = decisionView(a, now);
    else if (a.action === "multiword") e.multiword = decisionView(a, now);
    else if (a.substitute !== null) e.subs.set(a.substitute.trim(), decisionView(a, now));
  }
  const it = r.item;
  const byAnnotator = new Map(it.responses.map((x) => [x.annotator, x]));
  const parsed = parseLexeltItem(it.originalLexelt);
  const originalPos = parsed?.pos ?? "";
  const corrected = it.lexelt !== it.originalLexelt ? it.pos : null;
  const headingId = `inst-${it.instanceId}`;
  const card = (
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
                        <Answer resp={resp} typed={t} instanceId={it.instanceId} decisions={decided?.subs ?? new Map()} responseStruck={struck} />
                      </td>
                      <td data-label="Multiword">
                        <MultiwordCell
                          instanceId={it.instanceId}
                          annotator={t.annotator}
                          phrase={t.multiword ? t.multiword.trim() : null}
                          inMwgold={resp?.multiword ?? null}
                          decision={decided?.multiword ?? null}
                          responseStruck={struck}
                        />
                      </td>
                      <td>
                        <ResponseStrike instanceId={it.instanceId} annotator={t.annotator} decision={decided?.response ?? null} />
                      </td>
                      <td className={styles.noteCell}>
                        <NoteCell note={notes?.get(t.annotator)} instanceId={it.instanceId} annotator={t.annotator} />
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
          instanceId={it.instanceId}
          reviewed={r.reviewed ? { by: r.reviewed.by ?? "command line", when: relativeTime(r.reviewed.at, now), title: absoluteTime(r.reviewed.at) } : null}
        />
        <ExclusionForm instanceId={it.instanceId} excluded={it.excluded} />
        {parsed && <PosForm instanceId={it.instanceId} originalPos={originalPos} correctedPos={corrected} />}
        {r.typed.length > 0 && <ReturnForm instanceId={it.instanceId} annotators={r.typed.map((t) => t.annotator)} />}
      </div>
    </article>
  );
  return rank === undefined ? card : (
    <KeepPlace instanceId={it.instanceId} rank={rank}>
      {card}
    </KeepPlace>
  );
}

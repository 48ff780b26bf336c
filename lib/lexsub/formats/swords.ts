/**
 * SWORDS (Lee et al. 2021) JSON ↔ instances and a gold with label counts.
 *
 * `{contexts: id → {context, extra}, targets: id → {context_id, target, offset, pos,
 * extra}, substitutes: id → {target_id, substitute, extra}, substitutes_lemmatized,
 * substitute_labels: id → [TRUE|FALSE|UNSURE|TRUE_IMPLICIT|FALSE_IMPLICIT…]}`.
 * Each target becomes an instance (id = the target id, context split at the
 * character offset, lexelt = CoInCo lemma or the target lower-cased, `.pos`); each
 * substitute an entry whose count is its TRUE + TRUE_IMPLICIT labels and which
 * keeps every label in order, its id and extra, so JSON → project → JSON gives the
 * same object back (a file whose ids are eval.py's recipe, as SWORDS's are; others with
 * `ids: "as-imported"`). Offsets count code points, as Python's do. Pure (node:crypto
 * only, for the ids).
 */
import { createHash } from "node:crypto";
import {
  type DatasetEntry,
  type DatasetError,
  type DatasetInstance,
  type DatasetParseResult,
  type ExportItem,
  type ExportResult,
  POS_LETTER,
  POS_NAME,
  CARRIED_KEY,
  carryMeta,
  coincoSentenceKey,
  coincoSentenceTokens,
  countLoss,
  counted,
  lexeltLemma,
  lineAt,
  mergedEntries,
  someIds,
} from "./dataset";
import { parseLexeltItem } from "../types";
import { codePoints, swordsContextId, swordsSubstituteId, swordsTargetId, utf16Index } from "./swords-ids";

const SWORDS_LABELS = ["TRUE", "FALSE", "UNSURE", "TRUE_IMPLICIT", "FALSE_IMPLICIT"] as const;
const LABELS = new Set<string>(SWORDS_LABELS);

/** The parts of speech SWORDS's reader knows (its Pos enum), as its JSON names them. */
const SWORDS_POS = new Set(["UNKNOWN", "ADJ", "ADV", "INTJ", "NOUN", "PROPN", "VERB", "ADP", "AUX", "CCONJ", "DET", "NUM", "PART", "PRON", "SCONJ", "PUNCT", "SYM", "X"]);
/** The lexelt PoS of a target whose pos has no n/v/a/r letter (or is null). */
const OTHER_POS = "x";
/** Labels that count as an annotator giving the substitute. */
const POSITIVE = new Set(["TRUE", "TRUE_IMPLICIT"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const key = (k: string) => `[${JSON.stringify(k)}]`;

export function parseSwords(text: string, file: string): DatasetParseResult {
  const errors: DatasetError[] = [];
  const notes: string[] = [];
  const fail = (where: string, field: string, message: string) => errors.push({ where: `${file}: ${where}`, field, message });
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    errors.push({ where: m ? `${file}:${lineAt(text, Number(m[1]))}` : file, field: "JSON", message: msg });
    return { format: "swords", instances: [], errors, notes };
  }
  if (!isObject(doc)) {
    fail("$", "document", "not a JSON object");
    return { format: "swords", instances: [], errors, notes };
  }
  for (const f of ["contexts", "targets", "substitutes", "substitute_labels"]) if (!isObject(doc[f])) fail(`$.${f}`, f, "missing or not an object");
  if (errors.length > 0) return { format: "swords", instances: [], errors, notes };
  const contexts = doc.contexts as Record<string, unknown>;
  const targets = doc.targets as Record<string, unknown>;
  const substitutes = doc.substitutes as Record<string, unknown>;
  const labels = doc.substitute_labels as Record<string, unknown>;
  const lemmatized = doc.substitutes_lemmatized;
  if (lemmatized !== undefined && typeof lemmatized !== "boolean") fail("$.substitutes_lemmatized", "substitutes_lemmatized", "not true or false");

  const instances: DatasetInstance[] = [];
  const byTarget = new Map<string, DatasetInstance>();
  /** Instance id → where it was taken. */
  const byInstance = new Map<string, string>();
  const usedContexts = new Set<string>();
  for (const [tid, t] of Object.entries(targets)) {
    const where = `$.targets${key(tid)}`;
    if (!isObject(t)) {
      fail(where, "target", "not an object");
      continue;
    }
    const { context_id: cid, target, offset, pos } = t;
    if (typeof cid !== "string" || !isObject(contexts[cid])) {
      fail(`${where}.context_id`, "context_id", `${JSON.stringify(cid)} names no context in $.contexts`);
      continue;
    }
    const ctx = contexts[cid] as Record<string, unknown>;
    if (typeof ctx.context !== "string") {
      fail(`$.contexts${key(cid)}.context`, "context", "missing or not a string");
      continue;
    }
    if (typeof target !== "string" || target === "") {
      fail(`${where}.target`, "target", "missing or empty");
      continue;
    }
    if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
      fail(`${where}.offset`, "offset", `${JSON.stringify(offset)} is not a character offset`);
      continue;
    }
    const context = ctx.context;
    // The offset counts code points, as Python (and eval.py) does; a string here is UTF-16.
    const at = utf16Index(context, offset);
    if (at < 0 || context.slice(at, at + target.length) !== target) {
      const found = at < 0 ? "nothing" : JSON.stringify(context.slice(at, at + target.length));
      fail(`${where}.offset`, "offset", `the context holds ${found} at ${offset} (in code points), not the target ${JSON.stringify(target)}`);
      continue;
    }
    const extra = t.extra;
    // The lexelt a lexgold export wrote (extra.lexelt): read back as it was, PoS included (a corrected PoS, lemma.ori.pos, as lemma.pos).
    const written = isObject(extra) && typeof extra.lexelt === "string" ? parseLexeltItem(extra.lexelt) : null;
    const own = written && !/\s/.test(written.lemma) && written.lemma !== "" ? written : null;
    // Any part of speech SWORDS's reader takes (its Pos names, or null); those without an n/v/a/r
    // letter get the lexelt PoS x, as a TSAR line does, and the file's pos is kept for the export.
    if (pos !== null && !(typeof pos === "string" && SWORDS_POS.has(pos))) {
      fail(`${where}.pos`, "pos", `${pos === undefined ? "missing" : `${JSON.stringify(pos)} is not a part of speech SWORDS reads (NOUN, VERB, ADJ, ADV, PROPN, … X, UNKNOWN) nor null`}`);
      continue;
    }
    const letter = own ? own.pos : ((pos !== null && POS_LETTER[pos]) || OTHER_POS);
    if (/\s/.test(tid) || tid === "") {
      fail(where, "id", "a target id must be non-empty with no spaces (it is the instance id)");
      continue;
    }
    // The instance id a lexgold export wrote (extra.lexgold_instance) names the instance again; else the target id does.
    const lexgoldId = isObject(extra) ? extra.lexgold_instance : undefined;
    if (lexgoldId !== undefined && (typeof lexgoldId !== "string" || lexgoldId === "" || /\s/.test(lexgoldId))) {
      fail(`${where}.extra.lexgold_instance`, "lexgold_instance", `${JSON.stringify(lexgoldId)} is not an instance id (non-empty, no spaces)`);
      continue;
    }
    const instanceId = typeof lexgoldId === "string" ? lexgoldId : tid;
    if (byInstance.has(instanceId)) {
      fail(instanceId === tid ? where : `${where}.extra.lexgold_instance`, "id", `instance id ${JSON.stringify(instanceId)} is already used by ${byInstance.get(instanceId)}`);
      continue;
    }
    byInstance.set(instanceId, where);
    const lemmaSource = own ? own.lemma : isObject(extra) && typeof extra.coinco_lemma === "string" && extra.coinco_lemma.trim() !== "" ? extra.coinco_lemma : target.toLowerCase();
    const lemma = lexeltLemma(lemmaSource);
    usedContexts.add(cid);
    const inst: DatasetInstance = {
      instanceId,
      lexelt: `${lemma}.${letter}`,
      lemma,
      pos: letter,
      before: context.slice(0, at),
      head: target,
      after: context.slice(at + target.length),
      meta: {
        format: "swords",
        ...(instanceId !== tid ? { targetId: tid } : {}),
        contextId: cid,
        ...(ctx.extra !== undefined ? { contextExtra: ctx.extra } : {}),
        pos,
        ...(extra !== undefined ? { extra } : {}),
        ...(lemmatized !== undefined ? { lemmatized } : {}),
      },
      entries: [],
      where: `${file}: ${where}`,
    };
    instances.push(inst);
    byTarget.set(tid, inst);
  }
  for (const [sid, s] of Object.entries(substitutes)) {
    const where = `$.substitutes${key(sid)}`;
    if (!isObject(s)) {
      fail(where, "substitute", "not an object");
      continue;
    }
    const inst = typeof s.target_id === "string" ? byTarget.get(s.target_id) : undefined;
    if (!inst) {
      if (!(typeof s.target_id === "string" && s.target_id in targets)) fail(`${where}.target_id`, "target_id", `${JSON.stringify(s.target_id)} names no target in $.targets`);
      continue;
    }
    if (typeof s.substitute !== "string" || s.substitute.trim() === "" || s.substitute.includes(";")) {
      fail(`${where}.substitute`, "substitute", `${JSON.stringify(s.substitute)} is empty, not a string or holds a ";"`);
      continue;
    }
    const ls = labels[sid];
    if (!Array.isArray(ls)) {
      fail(`$.substitute_labels${key(sid)}`, "substitute_labels", "missing or not a list for this substitute");
      continue;
    }
    const bad = ls.findIndex((l) => typeof l !== "string" || !LABELS.has(l));
    if (bad >= 0) {
      fail(`$.substitute_labels${key(sid)}[${bad}]`, "label", `${JSON.stringify(ls[bad])} is not one of ${SWORDS_LABELS.join(", ")}`);
      continue;
    }
    if (inst.entries.some((e) => e.substitute === s.substitute)) {
      fail(`${where}.substitute`, "substitute", `${JSON.stringify(s.substitute)} is listed twice for target ${s.target_id}`);
      continue;
    }
    const entry: DatasetEntry = {
      substitute: s.substitute,
      count: (ls as string[]).filter((l) => POSITIVE.has(l)).length,
      labels: [...(ls as string[])],
      meta: { id: sid, ...(s.extra !== undefined ? { extra: s.extra } : {}) },
    };
    inst.entries.push(entry);
  }
  for (const sid of Object.keys(labels)) if (!(sid in substitutes)) fail(`$.substitute_labels${key(sid)}`, "substitute_labels", "labels for a substitute not in $.substitutes");
  const unused = Object.keys(contexts).filter((c) => !usedContexts.has(c)).length;
  if (unused > 0) notes.push(`${unused} contexts hold no target and were not imported`);
  return { format: "swords", instances, errors, notes };
}

function sha1(s: string): string {
  return createHash("sha1").update(s).digest("hex");
}

/**
 * Which ids the SWORDS export writes: "recipe" (the default), eval.py's for every
 * context, target and substitute (./swords-ids.ts), so eval.py loads the file; or
 * "as-imported", the ids an imported SWORDS file had, as it had them (a file made by
 * another tool whose ids are not the recipe comes back as it was), the recipe for the rest.
 */
export type SwordsIds = "recipe" | "as-imported";

/**
 * A project's gold as SWORDS JSON. Imported SWORDS targets come back with their
 * offsets, PoS, extra and every label; other instances get, for each gold substitute
 * given by k annotators, k TRUE labels. Ids are eval.py's recipe, computed from what
 * is written (stable: the same project gives the same ids), unless `ids:
 * "as-imported"` keeps an imported file's own. Offsets count code points, as
 * Python does. An instance whose target id is not its instance id keeps the instance
 * id in `targets[id].extra.lexgold_instance`; an instance not from SWORDS also keeps
 * its lexelt and its format's own fields (CoInCo's MASC ids, token attributes,
 * problematic flag and the sentence's tokens; TSAR's columns) in `targets[id].extra`
 * (`lexelt`, `lexgold_meta`), and a substitute its own fields (CoInCo's PoS) in
 * `substitutes[id].extra.lexgold_meta`: parseSwords reads them back.
 *
 * What the recipe cannot hold is reported: a target with the same id as one
 * already written (same context, word in any case, offset and PoS) is left out; two
 * substitutes of a target that differ only in case share an id, so their labels are
 * written together under the first (eval.py's own preprocessing merges them so).
 */
export function writeSwords(items: readonly ExportItem[], options: { ids?: SwordsIds } = {}): ExportResult {
  const asImported = options.ids === "as-imported";
  const lost: string[] = [];
  const contexts: Record<string, unknown> = {};
  const targets: Record<string, unknown> = {};
  const substitutes: Record<string, unknown> = {};
  const labels: Record<string, string[]> = {};
  let lemmatized: boolean | undefined;
  let names = 0;
  const mw: string[] = [];
  let excluded = 0;
  const noPos: string[] = [];
  let written = 0;
  let fresh = 0;
  let derived = 0;
  /** Imported ids written as eval.py's recipe instead (instance ids of their targets). */
  const rewritten: string[] = [];
  /** Imported ids kept (as-imported) that are not the recipe. */
  const notRecipe: string[] = [];
  const clashes: string[] = [];
  const caseMerged: string[] = [];
  const sentenceTokens = coincoSentenceTokens(items);
  const sentencesWritten = new Set<string>();
  for (const item of items) {
    if (item.excluded !== null) {
      excluded++;
      continue;
    }
    const m = item.meta && item.meta.format === "swords" ? item.meta : null;
    const context = item.before + item.head + item.after;
    const offset = codePoints(item.before);
    let cid: string;
    let tid: string;
    let target: Record<string, unknown>;
    let contextEntry: Record<string, unknown>;
    let differs = false;
    if (m) {
      const pos = typeof m.pos === "string" ? m.pos : null;
      const fileCid = String(m.contextId);
      const fileTid = typeof m.targetId === "string" ? m.targetId : item.instanceId;
      const recipeCid = swordsContextId(sha1, context);
      cid = asImported ? fileCid : recipeCid;
      const recipeTid = swordsTargetId(sha1, { contextId: cid, target: item.head, offset, pos });
      tid = asImported ? fileTid : recipeTid;
      differs = fileCid !== recipeCid || fileTid !== recipeTid;
      contextEntry = m.contextExtra !== undefined ? { context, extra: m.contextExtra } : { context };
      target = { context_id: cid, target: item.head, offset, pos: m.pos };
      let extra = m.extra;
      // The target id no longer names the instance: the instance id goes with the target, as for other instances.
      const extraObject = typeof extra === "object" && extra !== null && !Array.isArray(extra) ? (extra as Record<string, unknown>) : null;
      if (tid !== item.instanceId && extraObject?.lexgold_instance !== item.instanceId) extra = { ...(extraObject ?? {}), lexgold_instance: item.instanceId };
      if (extra !== undefined) target.extra = extra;
      if (typeof m.lemmatized === "boolean") lemmatized = lemmatized === undefined ? m.lemmatized : lemmatized && m.lemmatized;
    } else {
      fresh++;
      const letter = parseLexeltItem(item.lexelt)?.pos ?? "";
      const pos = POS_NAME[letter];
      if (!pos) noPos.push(item.instanceId);
      cid = swordsContextId(sha1, context);
      contextEntry = { context, extra: { lexgold_instance: item.instanceId } };
      tid = swordsTargetId(sha1, { contextId: cid, target: item.head, offset, pos: pos ?? null });
      const extra: Record<string, unknown> = { lexgold_instance: item.instanceId, lexelt: item.lexelt };
      let carried = item.meta;
      if (carried?.format === "coinco") {
        // A CoInCo sentence's tokens go with the first of its targets written (the one that kept them may be excluded).
        const key = coincoSentenceKey(carried);
        if (!sentencesWritten.has(key)) {
          sentencesWritten.add(key);
          const tokens = sentenceTokens.get(key);
          if (tokens && !Array.isArray(carried.tokens)) carried = { ...carried, tokens };
        } else if (Array.isArray(carried.tokens)) {
          const { tokens: _tokens, ...rest } = carried;
          carried = rest;
        }
      }
      if (carried) extra[CARRIED_KEY] = carryMeta(carried, context);
      target = { context_id: cid, target: item.head, offset, pos: pos ?? null, extra };
    }
    if (tid in targets) {
      clashes.push(item.instanceId);
      continue;
    }
    contexts[cid] = contextEntry;
    targets[tid] = target;
    const { entries, names: n } = mergedEntries(item);
    names += n;
    if (item.mwEntries.length > 0) mw.push(item.instanceId);
    if (item.derived.some((d) => d.substitute !== "pn")) derived++;
    let merged = false;
    for (const e of entries) {
      const known = typeof e.meta?.id === "string" ? e.meta.id : null;
      const recipe = swordsSubstituteId(sha1, { targetId: tid, substitute: e.substitute });
      const sid = asImported && known ? known : recipe;
      if (known && known !== swordsSubstituteId(sha1, { targetId: m && typeof m.targetId === "string" ? m.targetId : item.instanceId, substitute: e.substitute })) differs = true;
      const ls = e.labels ?? Array.from({ length: e.count }, () => "TRUE");
      if (sid in substitutes) {
        labels[sid].push(...ls);
        merged = true;
        continue;
      }
      const s: Record<string, unknown> = { target_id: tid, substitute: e.substitute };
      if (e.meta && "extra" in e.meta) s.extra = e.meta.extra;
      else if (!known) s.extra = e.meta ? { sources: ["lexgold"], [CARRIED_KEY]: e.meta } : { sources: ["lexgold"] };
      substitutes[sid] = s;
      labels[sid] = ls;
    }
    if (merged) caseMerged.push(item.instanceId);
    if (m && differs) (asImported ? notRecipe : rewritten).push(item.instanceId);
    written++;
  }
  // The gold's substitutes are lemmatised (the lemma review), so new targets say so.
  const flag = fresh > 0 ? (lemmatized ?? true) && true : lemmatized;
  const doc = { contexts, targets, substitutes, ...(flag !== undefined ? { substitutes_lemmatized: flag } : {}), substitute_labels: labels };
  countLoss(lost, excluded, "excluded instances were left out");
  if (clashes.length > 0) {
    lost.push(
      counted(
        clashes.length,
        `instances were left out: their target has the same id as another's written before it (the same context, word in any case, offset and PoS; eval.py's ids cannot tell them apart) (${someIds(clashes)})`,
      ),
    );
  }
  if (rewritten.length > 0) {
    lost.push(
      `${rewritten.length} imported ${rewritten.length === 1 ? "target" : "targets"} had context, target or substitute ids that are not eval.py's recipe: written with eval.py's ids (the instance id in extra.lexgold_instance); ids: "as-imported" (--ids as-imported) writes them as the file had them (${someIds(rewritten)})`,
    );
  }
  if (notRecipe.length > 0) {
    lost.push(`${notRecipe.length} imported ${notRecipe.length === 1 ? "target keeps an id that is" : "targets keep ids that are"} not eval.py's recipe, as asked (as-imported): eval.py's loader refuses such a file (${someIds(notRecipe)})`);
  }
  if (caseMerged.length > 0) {
    lost.push(counted(caseMerged.length, `instances have substitutes that differ only in case: eval.py's ids are case-blind, so their labels are written together under the first (${someIds(caseMerged)})`));
  }
  countLoss(lost, names, "NAME answers (pn) were dropped: SWORDS has no proper-name entry");
  if (mw.length > 0) lost.push(counted(mw.length, `instances had multiword answers, which SWORDS cannot carry (${someIds(mw)})`));
  if (noPos.length > 0) lost.push(counted(noPos.length, `instances have a PoS other than n, v, a, r and were written with pos null (their lexelt is kept in extra.lexelt) (${someIds(noPos)})`));
  if (derived > 0) {
    lost.push(counted(derived, `instances have annotators' substitutes: each is written as TRUE labels only (SWORDS's FALSE and UNSURE judgements have no source in free responses), and which annotator gave it is not written`));
  }
  lost.push("modes are not written: SWORDS keeps labels, not modes (the mode follows from the counts)");
  return { text: JSON.stringify(doc) + "\n", lost, written };
}

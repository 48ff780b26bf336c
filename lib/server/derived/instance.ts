/**
 * One instance's derived figures (#39), through the same pure code that derives a whole
 * project's gold (lib/lexsub/gold.ts deriveGold, adjudication.ts, dataset-gold.ts,
 * agreement/item.ts): its inputs (inputs.ts) in, its gold and mwgold lines, T, mode, problems,
 * the agreement sums it adds overall, to its PoS, its lexelt and each annotator, the forms its
 * answers hold, and the counts it adds to the project's summary out. Nothing here is a second
 * statement of a rule: deriving every instance this way and adding up gives what deriving the
 * project at once gives (test/fuzz/derived.test.ts checks it).
 */
import "server-only";
import { applyAdjudications } from "../../lexsub/adjudication";
import { type AgreementItem, type AnnotatorSums, type GroupSums, histogramBin, itemSums } from "../../lexsub/agreement";
import { withImportedGold } from "../../lexsub/dataset-gold";
import { type GoldItem, type GoldProblem, deriveGold } from "../../lexsub/gold";
import { countForms, lemmaTable } from "../../lexsub/normalize";
import type { AnnotatorResponse } from "../../lexsub/types";
import { type InstanceInputs, type StoredResponse, countsInGold } from "./inputs";
import { lemmaProposer } from "./lemmas";
import { goldLineFacts, mwLineFacts } from "../../scorers/semeval2007/items";
import { readingFor } from "../../scorers/semeval2007/rules";

/** A form typed in the instance: [form, PoS, how often]. */
export type FormCount = [string, string, number];

/** What an instance adds to the project's sums, kept with it (gold_items.sums) to take away again. */
export interface ItemContribution {
  /** Its agreement groups: the PoS and the lexelt item it is counted under. */
  pos: string;
  lexelt: string;
  /** The group sums it adds (fields that are not 0). */
  g: Partial<GroupSums>;
  /** What it adds to each annotator's sums (fields that are not 0). */
  a: Record<string, Partial<AnnotatorSums>>;
  /** What it adds to the project's counts (derived_counts names). */
  c: Record<string, number>;
  /** The forms its answers hold. */
  f: FormCount[];
  /** Spellings of those forms imported with other spacing: [form, spelling, times met] (absent: none). */
  s?: FormCount[];
  /** In the queue: its lexelt and how many of its answers count toward "complete" (the Progress tab); else null. */
  q: [number, number] | null;
  /** In the queue: each response's annotator and when it was saved (the Progress tab's counts per annotator and lexelt). */
  u?: [number, number][];
}

/** The item as the agreement measures read it, with its gold line from the responses alone (the Agreement tab's lowest items show it). */
export type StoredItem = AgreementItem & { line: string | null };

/** The row of gold_items for the instance, and its contribution. */
export interface InstanceFigures {
  instanceId: string;
  lexeltId: number;
  lexelt: string;
  lexeltPosition: number;
  position: number;
  inQueue: boolean;
  excluded: boolean;
  reviewed: boolean;
  line: string | null;
  mwLine: string | null;
  inT: boolean;
  hasMode: boolean;
  rank: number;
  pairs: number;
  /** The annotators whose answers count, between line breaks. */
  annotators: string;
  /** Its gold line as the official scorer reads it (the project's reading): in T, with a mode, its group. */
  keyInT: boolean;
  keyMode: boolean;
  keyGroup: string;
  problems: GoldProblem[];
  item: StoredItem | null;
  sums: ItemContribution;
}

/** The instance's item as the project's gold derives it (responses and imported counts), and its response-only item and problems. */
export interface DerivedInstance {
  /** The item of the project's gold (with any imported dataset counts). */
  item: GoldItem;
  /** The item from the annotators' responses alone (what agreement reads). */
  responseItem: GoldItem;
  problems: GoldProblem[];
  /** The responses the gold counts, as typed (before adjudication), and with the decisions applied. */
  typed: AnnotatorResponse[];
  adjudicated: AnnotatorResponse[];
  /** Active decisions whose substitute or phrase is no longer in the response. */
  stale: Set<number>;
}

/** The responses that count, as the derivation reads them (the lexelt as loaded). */
function typedResponses(inputs: Omit<InstanceInputs, "lemmaRows">): AnnotatorResponse[] {
  return inputs.responses.filter(countsInGold).map((r) => ({
    annotator: r.annotator,
    lexelt: inputs.lexelt,
    instanceId: inputs.instanceId,
    kind: r.kind,
    substitutes: r.substitutes,
    multiword: r.multiword,
  }));
}

/** The normalised forms the instance's answers hold after adjudication: what its lemma decisions are looked up by. */
export function formsOf(inputs: Omit<InstanceInputs, "lemmaRows">, language: string): string[] {
  const { responses } = applyAdjudications(typedResponses(inputs), inputs.adjudications);
  return [...countForms(responses, undefined, language).counts.keys()];
}

/** Derive the instance's gold item through lib/lexsub/gold.ts, as the project's derivation does. */
export function deriveInstance(inputs: InstanceInputs, language: string): DerivedInstance {
  const typed = typedResponses(inputs);
  const adjudicated = applyAdjudications(typed, inputs.adjudications);
  const result = deriveGold(
    [{ lexelt: inputs.lexelt, instanceId: inputs.instanceId, excludedReason: inputs.excludedReason, correctedPos: inputs.correctedPos, head: inputs.head }],
    adjudicated.responses,
    { lemmaTable: lemmaTable(inputs.lemmaRows, language), propose: lemmaProposer(language), unreviewed: "keep", foldCase: false, language },
  );
  const merged = inputs.imported.length > 0 ? withImportedGold(result, new Map([[inputs.instanceId, inputs.imported]])) : result;
  return { item: merged.items[0], responseItem: result.items[0], problems: result.problems, typed, adjudicated: adjudicated.responses, stale: adjudicated.stale };
}

/** Fields of a sums record that are not 0. */
function nonZero<T extends object>(sums: T): Partial<T> {
  const out: Record<string, number> = {};
  const all = sums as Record<string, number>;
  for (const k in all) if (all[k] !== 0) out[k] = all[k];
  return out as Partial<T>;
}

/** The responses left out because they were saved after the known answers were shown (participants left out are counted apart). */
function afterKnownAnswers(responses: readonly StoredResponse[]): number {
  let n = 0;
  for (const r of responses) if (!r.leftOutOfGold && r.afterKnownAnswers) n++;
  return n;
}

/** Everything the instance contributes, from its inputs. */
export function instanceFigures(inputs: InstanceInputs, language: string): InstanceFigures {
  const d = deriveInstance(inputs, language);
  const { item, responseItem } = d;
  const excluded = item.excluded !== null;
  const s = itemSums(responseItem);
  const c: Record<string, number> = { instances: 1 };
  const count = (name: string, yes: boolean) => {
    if (yes) c[name] = (c[name] ?? 0) + 1;
  };
  count("excluded", excluded);
  if (!excluded) {
    count("goldLines", item.line !== null);
    count("inT", item.inT);
    count("withMode", item.mode !== null);
    count("mwLines", item.mwLine !== null);
    count("mwItems", item.multiword !== null);
    count("responseGoldLines", responseItem.line !== null);
    count("responseInT", responseItem.inT);
    count("responseWithMode", responseItem.mode !== null);
  }
  count("reviewed", inputs.reviewed);
  for (const r of d.typed) c[`typed:${r.annotator}`] = 1;
  const known = afterKnownAnswers(inputs.responses);
  if (known > 0) c.afterKnownAnswers = known;
  if (s.pairwise !== null) {
    count("withPairs", true);
    count(`hist:${histogramBin(s.pairwise)}`, true);
  }
  for (const p of d.problems) {
    if (p.once === undefined) count("problems", true);
    else c[`once:${p.once}`] = 1;
  }
  // The gold line and mwgold line as the official scorer reads them (the stored runs' key): T, TM, the groups, MW.
  const reading = readingFor(language);
  const key = !excluded && item.line !== null ? goldLineFacts(item.line, reading) : null;
  if (key) {
    count("key:T", key.inT);
    count("key:TM", key.hasMode);
    if (key.inT) count(`key:T:${key.group}`, true);
    if (key.hasMode) count(`key:TM:${key.group}`, true);
    if (key.errors > 0) c["key:errors"] = key.errors;
    if (key.warnings > 0) c["key:warnings"] = key.warnings;
  }
  const mw = !excluded && item.mwLine !== null ? mwLineFacts(item.mwLine, reading) : null;
  if (mw) {
    count("key:MW", mw.multiword);
    if (mw.errors > 0) c["mwkey:errors"] = mw.errors;
    if (mw.warnings > 0) c["mwkey:warnings"] = mw.warnings;
  }
  const forms: FormCount[] = [];
  const spacing: FormCount[] = [];
  const typed = countForms(d.adjudicated, undefined, language);
  for (const [form, byPos] of typed.counts) for (const [pos, n] of byPos) forms.push([form, pos, n]);
  for (const [form, bySpelling] of typed.spaced) for (const [spelling, n] of bySpelling) spacing.push([form, spelling, n]);
  const annotators: Record<string, Partial<AnnotatorSums>> = {};
  for (const [name, a] of s.annotators) annotators[name] = nonZero(a);
  const agreementItem: StoredItem | null = excluded
    ? null
    : {
        lexelt: responseItem.lexelt,
        instanceId: responseItem.instanceId,
        pos: responseItem.pos,
        excluded: null,
        responses: responseItem.responses.map((r) => ({ annotator: r.annotator, kind: r.kind, substitutes: [...r.substitutes], multiword: r.multiword })),
        entries: responseItem.entries,
        size: responseItem.size,
        inT: responseItem.inT,
        mode: responseItem.mode,
        line: responseItem.line,
      };
  // The Progress tab counts people only: a model's answers never (counted as an annotator or not).
  const people = inputs.responses.filter((r) => !r.isModel);
  return {
    instanceId: inputs.instanceId,
    lexeltId: inputs.lexeltId,
    lexelt: inputs.lexelt,
    lexeltPosition: inputs.lexeltPosition,
    position: inputs.position,
    inQueue: inputs.inQueue,
    excluded,
    reviewed: inputs.reviewed,
    line: item.line,
    mwLine: item.mwLine,
    inT: item.inT,
    hasMode: item.mode !== null,
    rank: s.pairwise ?? 2,
    pairs: s.group.pairs,
    annotators: d.typed.length > 0 ? `\n${d.typed.map((r) => r.annotator).join("\n")}\n` : "",
    keyInT: key?.inT ?? false,
    keyMode: key?.hasMode ?? false,
    keyGroup: key?.group ?? "",
    problems: d.problems,
    item: agreementItem,
    sums: {
      pos: responseItem.pos,
      lexelt: responseItem.lexelt,
      g: nonZero(s.group),
      a: annotators,
      c,
      f: forms,
      ...(spacing.length > 0 ? { s: spacing } : {}),
      q: inputs.inQueue ? [inputs.lexeltId, people.filter((r) => !r.leftOutOfGold).length] : null,
      ...(inputs.inQueue && people.length > 0 ? { u: people.map((r): [number, number] => [r.userId, r.updatedAt]) } : {}),
    },
  };
}

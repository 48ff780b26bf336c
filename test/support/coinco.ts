/**
 * CoInCo's targets as lexgold gold inputs, for tests: each target token with its
 * substitutes and counts becomes an instance (`lemma.pos`, the token id) and the
 * responses of pseudo-annotators (annotator k gives every substitute with a count
 * above k), so that deriving the gold reproduces the counts; `expected` is the
 * gold line CoInCo's own counts make, written independently of the derivation.
 */
import { XMLParser } from "fast-xml-parser";
import type { GoldInstance } from "../../lib/lexsub/gold";
import type { AnnotatorResponse } from "../../lib/lexsub/types";

export interface CoincoTarget {
  lexelt: string;
  instanceId: string;
  pos: string;
  substitutes: { substitute: string; count: number }[];
}

/** CoInCo's MASC tags → the task's PoS; null for the rest. */
function posOf(tag: string): string | null {
  if (tag.startsWith("NN")) return "n";
  if (tag.startsWith("VB")) return "v";
  if (tag.startsWith("JJ")) return "a";
  if (tag.startsWith("RB")) return "r";
  return null;
}

const asArray = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

interface Token {
  "@_id": string;
  "@_lemma": string;
  "@_posMASC": string;
  substitutions?: { subst?: { "@_lemma": string; "@_freq": string } | { "@_lemma": string; "@_freq": string }[] };
}

/** The targets of a CoInCo XML file (tokens with an id other than XXX and at least one substitute). */
export function coincoTargets(xml: string): CoincoTarget[] {
  const parser = new XMLParser({ ignoreAttributes: false, parseAttributeValue: false, parseTagValue: false, trimValues: false });
  const doc = parser.parse(xml) as { document: { sent: { tokens: { token: Token | Token[] } } | { tokens: { token: Token | Token[] } }[] } };
  const out: CoincoTarget[] = [];
  for (const sent of asArray(doc.document.sent)) {
    for (const t of asArray(sent.tokens.token)) {
      const pos = posOf(t["@_posMASC"]);
      if (t["@_id"] === "XXX" || pos === null) continue;
      const counts = new Map<string, number>();
      for (const s of asArray(t.substitutions?.subst)) counts.set(s["@_lemma"], (counts.get(s["@_lemma"]) ?? 0) + Number(s["@_freq"]));
      if (counts.size === 0) continue;
      out.push({
        lexelt: `${t["@_lemma"].replace(/\s+/g, "_")}.${pos}`,
        instanceId: t["@_id"],
        pos,
        substitutes: [...counts].map(([substitute, count]) => ({ substitute, count })),
      });
    }
  }
  return out;
}

/** Instances, the pseudo-annotators' responses, and the gold line each target's counts make. */
export function coincoGoldInputs(targets: readonly CoincoTarget[]): { instances: GoldInstance[]; responses: AnnotatorResponse[]; expected: string[] } {
  const instances: GoldInstance[] = [];
  const responses: AnnotatorResponse[] = [];
  const expected: string[] = [];
  for (const t of targets) {
    instances.push({ lexelt: t.lexelt, instanceId: t.instanceId });
    const top = Math.max(...t.substitutes.map((s) => s.count));
    for (let k = 0; k < top; k++) {
      const given = t.substitutes.filter((s) => s.count > k).map((s) => s.substitute);
      responses.push({ annotator: `c${k}`, lexelt: t.lexelt, instanceId: t.instanceId, kind: "substitutes", substitutes: given, multiword: null });
    }
    const sorted = [...t.substitutes].sort((a, b) => b.count - a.count || (a.substitute < b.substitute ? -1 : a.substitute > b.substitute ? 1 : 0));
    expected.push(`${t.lexelt} ${t.instanceId} :: ${sorted.map((s) => `${s.substitute} ${s.count};`).join("")}`);
  }
  return { instances, responses, expected };
}

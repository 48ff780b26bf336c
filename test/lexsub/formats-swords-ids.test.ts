/**
 * The SWORDS export writes eval.py's ids. SWORDS's code (swords/__init__.py) makes
 * every id as a prefix and the SHA-1 hex digest of the UTF-8 bytes of Python's
 * `json.dumps(d, sort_keys=True)` (separators ", " and ": ", every character outside
 * space…~ written \uXXXX in lower-case hex, one beyond U+FFFF as its two UTF-16
 * halves), with
 *   context    c: + {"context": the context}
 *   target     t: + {"context_id": …, "offset": code points before it, "pos": "ADJ" or null, "target": lower-cased}
 *   substitute s: + {"substitute": lower-cased, "target_id": …}
 * and eval.py's loader (LexSubDataset.from_dict) asserts each id against it. The
 * expected digests below are those of that recipe for the example, worked out once with
 * Python's json and hashlib on this machine; the test needs no Python.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ExportItem } from "../../lib/lexsub/formats/dataset";
import { parseSwords, writeSwords } from "../../lib/lexsub/formats/swords";
import { swordsTargetId } from "../../lib/lexsub/formats/swords-ids";
import { swordsLoaderCheck } from "../../lib/scorers/swords/score";
import { asExportItems } from "../support/export-items";

const sha1 = (s: string) => createHash("sha1").update(s, "utf8").digest("hex");

/** Our example: curly quotes, an emoji (two UTF-16 units, one code point) and a tab before the target. */
const CONTEXT = "The \u201ccalm\u201d sea \u{1F642} was calm\tagain.";
const AT = CONTEXT.lastIndexOf("calm"); // UTF-16 index 22; 21 code points precede it
const CID = "c:0e90c504e355021898fba579ef60d2a2077de08e";
const TID = "t:4f14f91139f22e9be03c94c01beab5196094a2a9";
const SID = "s:aad5bf35cbac8fc7bd158b0f504e033d10015f39";

function item(over: Partial<ExportItem> = {}): ExportItem {
  return {
    lexelt: "calm.a",
    instanceId: "c7",
    before: CONTEXT.slice(0, AT),
    head: "calm",
    after: CONTEXT.slice(AT + 4),
    excluded: null,
    meta: null,
    imported: [],
    derived: [{ substitute: "Still", count: 2 }],
    mwEntries: [],
    ...over,
  } as ExportItem;
}

const items = (doc: string): ExportItem[] => asExportItems(parseSwords(doc, "s.json").instances);

describe("SWORDS export: eval.py's ids", () => {
  it("writes the recipe's context, target and substitute ids, with the offset in code points", () => {
    const doc = JSON.parse(writeSwords([item()]).text);
    expect(Object.keys(doc.contexts)).toEqual([CID]);
    expect(Object.keys(doc.targets)).toEqual([TID]);
    expect(doc.targets[TID]).toMatchObject({ context_id: CID, target: "calm", offset: AT - 1, pos: "ADJ" });
    expect(doc.substitutes).toEqual({ [SID]: { target_id: TID, substitute: "Still", extra: { sources: ["lexgold"] } } });
    expect(doc.substitute_labels[SID]).toEqual(["TRUE", "TRUE"]);
    // The scorer's check of eval.py's loader finds nothing to refuse.
    expect(swordsLoaderCheck(JSON.stringify(doc), "s.json", sha1)).toEqual([]);
    // A PoS outside n/v/a/r is written null and hashed as null: the recipe's value for our example.
    expect(swordsTargetId(sha1, { contextId: CID, target: "sea", offset: 11, pos: null })).toBe("t:8747432715a85ba321ad987f93f515946af1f1c1");
  });

  it("is stable: the same project gives the same ids, and the file read back writes the same object", () => {
    const first = writeSwords([item()]).text;
    expect(writeSwords([item()]).text).toBe(first);
    const back = items(first);
    expect(back.map((i) => [i.instanceId, i.before.length, i.head])).toEqual([["c7", AT, "calm"]]);
    expect(JSON.parse(writeSwords(back).text)).toEqual(JSON.parse(first));
  });

  it("rewrites an imported file's ids that are not the recipe (the instance id kept in extra), or keeps them as asked", () => {
    const file = JSON.stringify({
      contexts: { "c:mine": { context: "A calm sea." } },
      targets: { "t:mine": { context_id: "c:mine", target: "calm", offset: 2, pos: "ADJ", extra: null } },
      substitutes: { "s:mine": { target_id: "t:mine", substitute: "still" } },
      substitute_labels: { "s:mine": ["TRUE", "FALSE"] },
    });
    const recipe = writeSwords(items(file));
    const doc = JSON.parse(recipe.text);
    const [tid] = Object.keys(doc.targets);
    const cid = `c:${sha1('{"context": "A calm sea."}')}`;
    expect(tid).toBe(`t:${sha1(`{"context_id": "${cid}", "offset": 2, "pos": "ADJ", "target": "calm"}`)}`);
    expect(doc.targets[tid]).toEqual({ context_id: cid, target: "calm", offset: 2, pos: "ADJ", extra: { lexgold_instance: "t:mine" } });
    expect(doc.substitute_labels).toEqual({ [`s:${sha1(`{"substitute": "still", "target_id": "${tid}"}`)}`]: ["TRUE", "FALSE"] });
    expect(recipe.lost[0]).toMatch(/^1 imported target had context, target or substitute ids that are not eval\.py's recipe: written with eval\.py's ids .* \(t:mine\)$/);
    // Read back: the same instance, and now its ids are the recipe's, so nothing more is rewritten.
    const again = writeSwords(items(recipe.text));
    expect(items(recipe.text).map((i) => i.instanceId)).toEqual(["t:mine"]);
    expect(again.text).toBe(recipe.text);
    expect(again.lost.join("\n")).not.toMatch(/recipe/);

    const kept = writeSwords(items(file), { ids: "as-imported" });
    expect(JSON.parse(kept.text)).toEqual(JSON.parse(file));
    expect(kept.lost[0]).toBe("1 imported target keeps an id that is not eval.py's recipe, as asked (as-imported): eval.py's loader refuses such a file (t:mine)");
  });

  it("reports what the recipe cannot tell apart: a second target with the same id is left out, case-only substitutes share one", () => {
    const twin = item({ instanceId: "c8", derived: [{ substitute: "quiet", count: 1 }] });
    const cased = item({ derived: [{ substitute: "Still", count: 2 }, { substitute: "still", count: 1 }] });
    const out = writeSwords([cased, twin]);
    const doc = JSON.parse(out.text);
    expect(Object.keys(doc.targets)).toEqual([TID]);
    expect(doc.substitute_labels).toEqual({ [SID]: ["TRUE", "TRUE", "TRUE"] });
    expect(out.lost).toContain(
      "1 instance was left out: its target has the same id as another's written before it (the same context, word in any case, offset and PoS; eval.py's ids cannot tell them apart) (c8)",
    );
    expect(out.lost).toContain("1 instance has substitutes that differ only in case: eval.py's ids are case-blind, so their labels are written together under the first (c7)");
  });

  it("reads offsets as code points, as eval.py does", () => {
    const doc = JSON.stringify({
      contexts: { c: { context: CONTEXT } },
      targets: { t: { context_id: "c", target: "calm", offset: AT - 1, pos: "ADJ" } },
      substitutes: {},
      substitute_labels: {},
    });
    const r = parseSwords(doc, "s.json");
    expect(r.errors).toEqual([]);
    expect(r.instances[0].before).toBe(CONTEXT.slice(0, AT));
    // The UTF-16 index is one too far: refused, naming the unit.
    const off = parseSwords(doc.replace(`"offset":${AT - 1}`, `"offset":${AT}`), "s.json");
    expect(off.errors[0].message).toBe('the context holds "alm\\t" at 22 (in code points), not the target "calm"');
  });
});

describe("SWORDS import: every part of speech SWORDS's reader takes", () => {
  it("reads X, PROPN and null as lexelt PoS x and writes the file's pos back; a name SWORDS lacks is refused", () => {
    const context = "Anna met Berlin in May.";
    const target = (word: string, pos: unknown) => ({ context_id: "c", target: word, offset: context.indexOf(word), pos, extra: {} });
    const doc = (targets: Record<string, unknown>) => JSON.stringify({ contexts: { c: { context, extra: {} } }, targets, substitutes: {}, substitute_labels: {} });
    const r = parseSwords(doc({ t1: target("Anna", "PROPN"), t2: target("met", "X"), t3: target("May", null), t4: target("in", "ADP") }), "pos.json");
    expect(r.errors).toEqual([]);
    expect(r.instances.map((i) => [i.instanceId, i.lexelt])).toEqual([
      ["t1", "anna.x"],
      ["t2", "met.x"],
      ["t3", "may.x"],
      ["t4", "in.x"],
    ]);
    const back = JSON.parse(writeSwords(asExportItems(r.instances), { ids: "as-imported" }).text) as { targets: Record<string, { pos: unknown }> };
    expect(Object.fromEntries(Object.entries(back.targets).map(([id, t]) => [id, t.pos]))).toEqual({ t1: "PROPN", t2: "X", t3: null, t4: "ADP" });
    const bad = parseSwords(doc({ t1: target("Anna", "PROPER") }), "bad.json");
    expect(bad.errors.map((e) => `${e.where}: ${e.message}`)).toEqual([
      'bad.json: $.targets["t1"].pos: "PROPER" is not a part of speech SWORDS reads (NOUN, VERB, ADJ, ADV, PROPN, … X, UNKNOWN) nor null',
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { type AdjudicationDecision, applyAdjudications } from "../../lib/lexsub/adjudication";
import type { AnnotatorResponse } from "../../lib/lexsub/types";

const r = (annotator: string, instanceId: string, substitutes: string[], kind: AnnotatorResponse["kind"] = "substitutes"): AnnotatorResponse => ({
  annotator,
  lexelt: "quiet.a",
  instanceId,
  kind,
  substitutes,
  multiword: null,
});

let next = 1;
const d = (annotator: string, instanceId: string, action: AdjudicationDecision["action"], substitute: string | null = null, value: string | null = null): AdjudicationDecision => ({
  id: next++,
  annotator,
  instanceId,
  action,
  substitute,
  value,
});

describe("applyAdjudications", () => {
  const responses = [r("ann", "q1", ["silent", "hushed"]), r("bob", "q1", ["still", " calm "]), r("cat", "q1", [], "NAME"), r("ann", "q2", ["mute"])];

  it.each([
    ["a strike leaves one substitute out", [d("ann", "q1", "strike", "hushed")], { ann: ["silent"] }],
    ["a correction replaces it in place", [d("bob", "q1", "correct", "still", "peaceful")], { bob: ["peaceful", " calm "] }],
    ["substitutes are matched after tidying", [d("bob", "q1", "strike", "calm")], { bob: ["still"] }],
    ["a correction that repeats another substitute counts once", [d("ann", "q1", "correct", "hushed", "Silent")], { ann: ["silent"] }],
    ["striking every substitute leaves an empty answer", [d("ann", "q1", "strike", "silent"), d("ann", "q1", "strike", "hushed")], { ann: [] }],
  ])("%s", (_name, decisions, changed) => {
    const out = applyAdjudications(responses, decisions);
    expect(out.stale.size).toBe(0);
    expect(out.applied).toEqual(new Set(decisions.map((x) => x.id)));
    const q1 = Object.fromEntries(out.responses.filter((x) => x.instanceId === "q1").map((x) => [x.annotator, x.substitutes]));
    expect(q1).toEqual({ ann: responses[0].substitutes, bob: responses[1].substitutes, cat: [], ...changed });
    // Untouched responses are the same objects; the input is never changed.
    expect(out.responses.at(-1)).toBe(responses[3]);
    expect(responses[0].substitutes).toEqual(["silent", "hushed"]);
  });

  it("a struck response is left out whole, NAME included", () => {
    const decision = d("cat", "q1", "strike-response");
    const out = applyAdjudications(responses, [decision]);
    expect(out.responses.map((x) => `${x.annotator} ${x.instanceId}`)).toEqual(["ann q1", "bob q1", "ann q2"]);
    expect(out.applied).toEqual(new Set([decision.id]));
  });

  it("a decision whose substitute or response is gone is stale, not applied", () => {
    const gone = d("ann", "q1", "strike", "quiet");
    const nobody = d("dan", "q1", "strike", "silent");
    const out = applyAdjudications(responses, [gone, nobody]);
    expect(out.stale).toEqual(new Set([gone.id, nobody.id]));
    expect(out.responses).toEqual(responses);
  });
});

describe("applyAdjudications: multiword decisions", () => {
  const mw = (annotator: string, phrase: string | null, substitutes = ["silent"]): AnnotatorResponse => ({ ...r(annotator, "q1", substitutes), multiword: phrase });
  const responses = [mw("ann", "quiet down"), mw("bob", "keep  quiet "), mw("cat", null)];

  it("a correction replaces the phrase (matched after tidying), keeping the substitutes", () => {
    const decision = d("bob", "q1", "multiword", "keep quiet", "keep it quiet");
    const out = applyAdjudications(responses, [decision]);
    expect(out.applied).toEqual(new Set([decision.id]));
    expect(out.responses.map((x) => [x.annotator, x.multiword, x.substitutes])).toEqual([
      ["ann", "quiet down", ["silent"]],
      ["bob", "keep it quiet", ["silent"]],
      ["cat", null, ["silent"]],
    ]);
    // The stored answer is not changed.
    expect(responses[1].multiword).toBe("keep  quiet ");
  });

  it("a null value says the target is not part of a multiword", () => {
    const out = applyAdjudications(responses, [d("ann", "q1", "multiword", "quiet down", null)]);
    expect(out.responses[0]).toEqual({ ...responses[0], multiword: null });
    expect(out.responses[0].substitutes).toEqual(["silent"]);
  });

  it("a decision on a phrase the annotator has since changed or removed is stale, not applied", () => {
    const changed = d("ann", "q1", "multiword", "quiet up", "quiet down now");
    const removed = d("cat", "q1", "multiword", "keep quiet", null);
    const out = applyAdjudications(responses, [changed, removed]);
    expect(out.stale).toEqual(new Set([changed.id, removed.id]));
    expect(out.responses.map((x) => x.multiword)).toEqual(["quiet down", "keep  quiet ", null]);
  });

  it("goes along with substitute decisions on the same response", () => {
    const out = applyAdjudications([mw("ann", "quiet down", ["silent", "hushed"])], [d("ann", "q1", "strike", "hushed"), d("ann", "q1", "multiword", "quiet down", "quieten down")]);
    expect(out.responses[0]).toMatchObject({ substitutes: ["silent"], multiword: "quieten down" });
  });
});

/** The Gold and Agreement tabs' forms posted without JavaScript (test/server/native-forms/native-forms.test.ts). */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { NativeForm } from "../../support/native-form";
import { one, page, post, redirects, shows, world } from "../../support/native-world";

const gold = (q = "") => `/projects/${world.projectId}/gold${q}`;
const field = (name: string, value: string) => (f: NativeForm) => f.fields.some((x) => x.name === name && x.value === value);
const lemma = (form: string) => one<{ lemma: string; decision: string } | undefined>("select lemma, decision from lemma_overrides where project_id = ? and form = ?", world.projectId, form);
const active = (action: string, annotator: string) =>
  world.db
    .prepare("select a.id, a.value from adjudications a join users u on u.id = a.annotator_id where a.project_id = ? and a.action = ? and u.name = ? and a.undone_at is null")
    .all(world.projectId, action, annotator) as { id: number; value: string | null }[];

describe("the Gold tab's lemma review (coordinator)", () => {
  it("overrides a form's lemma, accepts, keeps and resets it, by the row's buttons", async () => {
    const row = { form: field("form", "silent") };
    shows(await post("coordinator", gold(), "Override", { ...row, set: { lemma: "silence" } }), "Overridden: silence");
    expect(lemma("silent")).toEqual({ lemma: "silence", decision: "overridden" });
    shows(await post("coordinator", gold(), "Override", { ...row, button: "Keep as typed" }), "Kept as typed: silent");
    expect(lemma("silent")?.decision).toBe("kept");
    shows(await post("coordinator", gold(), "Override", { ...row, button: "Reset" }), "Reset: silent (unreviewed)");
    expect(lemma("silent")).toBeUndefined();
  });

  it("keeps every open form as typed, and accepts every proposal", async () => {
    const open = () => one<{ n: number }>("select count(*) as n from lemma_overrides where project_id = ?", world.projectId).n;
    shows(await post("coordinator", gold(), /^Keep all \d+ open as typed$/), /Kept \d+ forms? as typed\./);
    const kept = open();
    expect(kept).toBeGreaterThan(0);
    // One form open again, then every proposal accepted.
    await post("coordinator", gold(), "Override", { form: field("form", "silent"), button: "Reset" });
    shows(await post("coordinator", gold(), /^Accept/, { form: (f) => f.buttons.length === 1 }), /Accepted the proposal for 1 form\.|Every form is reviewed already\./);
    expect(open()).toBe(kept);
  });
});

describe("the Gold tab's instances (coordinator)", () => {
  const instances = () => gold("?view=instances");
  const instance = (id: string) => one<{ excluded: string | null; pos: string | null; reviewed: number | null }>(
    "select excluded_reason as excluded, corrected_pos as pos, reviewed_at as reviewed from instances where project_id = ? and instance_id = ?",
    world.projectId,
    id,
  );

  it("marks an instance reviewed and un-marks it", async () => {
    shows(await post("coordinator", instances(), "Review mark of d1"), "d1 marked reviewed.");
    expect(instance("d1").reviewed).not.toBeNull();
    shows(await post("coordinator", instances(), "Review mark of d1"), "d1 no longer marked reviewed.");
    expect(instance("d1").reviewed).toBeNull();
  });

  it("excludes an instance with a reason (refused without one) and puts it back", async () => {
    const refused = await post("coordinator", instances(), "Exclusion of d2", { set: { reason: "" } });
    expect(refused.status).toBe(200);
    expect(instance("d2").excluded).toBeNull();
    shows(await post("coordinator", instances(), "Exclusion of d2", { set: { reason: "Garbled sentence." } }), "Excluded d2.");
    expect(instance("d2").excluded).toBe("Garbled sentence.");
    shows(await post("coordinator", instances(), "Exclusion of d2"), "Put d2 back into the gold.");
    expect(instance("d2").excluded).toBeNull();
  });

  it("corrects an instance's PoS and undoes it", async () => {
    shows(await post("coordinator", instances(), "PoS of d3", { set: { pos: "v" } }), "d3: PoS corrected to v.");
    expect(instance("d3").pos).toBe("v");
    shows(await post("coordinator", instances(), "PoS of d3"), "d3: PoS as loaded.");
    expect(instance("d3").pos).toBeNull();
  });

  it("returns a response to its annotator with a comment, and withdraws the return", async () => {
    const open = () => one<{ n: number }>("select count(*) as n from returned_items r join instances i on i.id = r.instance_ref where r.project_id = ? and i.instance_id = 'd1' and r.resolved_at is null", world.projectId).n;
    shows(await post("coordinator", instances(), "Return d1 to an annotator", { set: { annotator: "annotator2", comment: "Look at the sense again." } }), "Returned d1 to annotator2.");
    expect(open()).toBe(1);
    shows(await post("coordinator", instances(), "Withdraw the return of d1 to annotator2"), "Withdrew the return of d1 to annotator2.");
    expect(open()).toBe(0);
  });
});

describe("the Gold tab's adjudication (coordinator)", () => {
  const cell = (id: string) => gold(`?view=instances&adjudicate=${id}`);

  it("opens one substitute's form by a link, strikes the substitute and undoes it", async () => {
    // Without JavaScript, an opened box holds a link to the page with its form.
    const { html } = await page("coordinator", gold("?view=instances"));
    expect(html).toContain("adjudicate=adj-d1-annotator2-silent#adj-d1-annotator2-silent");
    // Decided, the cell shows the decision (the original struck through, who decided) and its Undo.
    const a = await post("coordinator", cell("adj-d1-annotator2-silent"), "Adjudicate silent of annotator2", { button: "Strike", set: { reason: "Not a substitute here." } });
    expect(a.status).toBe(200);
    expect(a.html).toContain('aria-label="silent, struck"');
    const struck = active("strike", "annotator2");
    expect(struck).toHaveLength(1);
    const undone = await post("coordinator", cell("adj-d1-annotator2-silent"), "Undo", { form: field("id", String(struck[0].id)) });
    expect(undone.status).toBe(200);
    expect(active("strike", "annotator2")).toHaveLength(0);
    // Undone, the cell offers its form again (the URL still asks for it).
    expect(undone.html).not.toContain('aria-label="silent, struck"');
    expect(undone.html).toContain('aria-label="Adjudicate silent of annotator2"');
  });

  it("corrects a substitute, refusing an empty correction", async () => {
    const refused = await post("coordinator", cell("adj-d1-annotator3-peaceful"), "Adjudicate peaceful of annotator3", { button: "Correct", set: { value: "" } });
    expect(refused.status).toBe(200);
    expect(active("correct", "annotator3")).toHaveLength(0);
    const a = await post("coordinator", cell("adj-d1-annotator3-peaceful"), "Adjudicate peaceful of annotator3", { button: "Correct", set: { value: "calm" } });
    expect(a.html).toContain('aria-label="peaceful, corrected"');
    expect(active("correct", "annotator3")).toEqual([expect.objectContaining({ value: "calm" })]);
  });

  it("strikes a whole response", async () => {
    shows(await post("coordinator", cell("strike-d1-annotator4"), "Strike annotator4's response", { set: { reason: "Off topic." } }), "response struck");
    expect(active("strike-response", "annotator4")).toHaveLength(1);
  });

  it("decides a multiword phrase", async () => {
    shows(await post("coordinator", cell("mw-d4-annotator3"), "Adjudicate the multiword of annotator3", { button: "Not a multiword" }), "not a multiword");
    expect(active("multiword", "annotator3")).toEqual([expect.objectContaining({ value: null })]);
  });
});

describe("the Agreement tab (coordinator)", () => {
  it("computes α and the intervals again when asked, and the page says as of when", async () => {
    const agreement = `/projects/${world.projectId}/agreement`;
    // None kept: the page says they are being computed and offers the form (the page never waits for them, #39).
    const w = new Database(world.dbFile);
    try {
      w.prepare("delete from derived_snapshots where project_id = ? and kind = 'agreement'").run(world.projectId);
    } finally {
      w.close();
    }
    const before = Date.now();
    const { html } = await page("coordinator", agreement);
    expect(html).toContain("not computed yet — computing now");
    // The α card says so too, not that there is too little to compare.
    expect(html).toContain("Not computed yet: it is being computed now, in the background.");
    expect(html).not.toContain("Too little to compare");
    // Posted from that page: the computation it started may be done by now, and a page loaded again would offer no form.
    const a = await post("coordinator", agreement, "Recompute α and the intervals", { from: { status: 200, location: null, html } });
    redirects(a, /\/agreement\?alpha=recomputed/);
    const kept = one<{ at: number } | undefined>("select computed_at as at from derived_snapshots where project_id = ? and kind = 'agreement'", world.projectId);
    expect(kept?.at).toBeGreaterThanOrEqual(before);
    expect((await page("coordinator", a.location!)).html).toContain('data-testid="alpha-as-of"');
  });
});

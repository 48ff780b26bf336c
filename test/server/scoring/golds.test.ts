/**
 * The project's own gold, as the Scoring page scores runs against it (resolveGold): read from the
 * lines kept as answers change (#39) once nothing is queued, derived from the responses while
 * something is; the same files either way, excluded instances and lemma decisions included.
 */
import { describe, expect, it } from "vitest";
import { catchUpNow, queuedCount } from "../../../lib/server/derived/actor-free";
import { projectGold, setExclusion } from "../../../lib/server/gold/gold";
import { requireProject } from "../../../lib/server/kernel/actor";
import { resolveGold } from "../../../lib/server/scoring/golds";
import { goldFixture } from "../../support/gold-fixture";

function files(f: ReturnType<typeof goldFixture>) {
  const project = requireProject(f.db, f.coord, f.project.id, { coordinator: true });
  const g = resolveGold(f.db, f.coord, project, { kind: "project" });
  return { gold: g.gold?.text, mwgold: g.mwgold?.text };
}

describe("the project's gold for scoring", () => {
  it("is the derivation's gold and mwgold whether read from the kept lines or derived while instances are queued", () => {
    const f = goldFixture(undefined, { acceptProposals: true });
    setExclusion(f.db, f.coord, f.project.id, "c2", "a hotel's name");
    expect(queuedCount(f.db, f.project.id)).toBeGreaterThan(0);
    const derived = projectGold(f.db, f.coord, f.project.id);
    // Queued: the kept lines lag behind the responses, so the gold is derived.
    expect(files(f)).toEqual({ gold: derived.gold, mwgold: derived.mwgold });
    catchUpNow(f.db, f.project.id);
    expect(queuedCount(f.db, f.project.id)).toBe(0);
    // Nothing queued: the kept lines, the same files.
    expect(files(f)).toEqual({ gold: derived.gold, mwgold: derived.mwgold });
    expect(derived.gold).toContain("jump");
    expect(derived.gold).not.toContain(" c2 ");
    expect(derived.mwgold).toContain("hop about");
  });
});

/**
 * The derivation kinds, gathered by lib/server/jobs/derive-jobs.ts from the registries each feature
 * fills (its derive-kinds.ts, exported by its index, #43): one owner per kind, since gathering them
 * lets a later registry replace an earlier one's kind without a word; and no kind that carries an
 * upload is ever cached (its answer keyed by the upload, shared with another caller).
 */
import { describe, expect, it } from "vitest";
import type { DeriveKinds } from "../../../lib/server/kernel/derive-kind";
import { ANNOTATE_DERIVE_KINDS } from "../../../lib/server/annotate";
import { DATASETS_DERIVE_KINDS } from "../../../lib/server/datasets";
import { GOLD_DERIVE_KINDS } from "../../../lib/server/gold";
import { SCORING_DERIVE_KINDS } from "../../../lib/server/scoring";

const REGISTRIES: Record<string, DeriveKinds> = {
  annotate: ANNOTATE_DERIVE_KINDS,
  datasets: DATASETS_DERIVE_KINDS,
  gold: GOLD_DERIVE_KINDS,
  scoring: SCORING_DERIVE_KINDS,
};

describe("derivation kinds", () => {
  it("are each registered by one feature", () => {
    const owners = new Map<string, string[]>();
    for (const [feature, kinds] of Object.entries(REGISTRIES)) for (const op of Object.keys(kinds)) owners.set(op, [...(owners.get(op) ?? []), feature]);
    expect([...owners].filter(([, o]) => o.length > 1)).toEqual([]);
    expect(owners.size).toBeGreaterThan(0);
  });

  it("never cache a kind that carries an upload", () => {
    const uploads = Object.values(REGISTRIES).flatMap((kinds) => Object.entries(kinds).filter(([, k]) => k.upload));
    expect(uploads.map(([op]) => op).sort()).toEqual(["ranking", "senseval"]);
    for (const [op, k] of uploads) expect({ op, uncached: k.uncached }).toEqual({ op, uncached: true });
  });
});

/**
 * A CoInCo release with the oddities of the real one imports whole (issue #29): the
 * entries the gold cannot hold as written are repaired or left out and each is reported
 * with its line; the gold exported keeps every other substitute and count. The file is
 * generated (test/support/coinco-gen.ts); the full release's size (15,629 targets) runs
 * in `npm run bench:import -- --coinco`, this suite uses 1,000.
 */
import { describe, expect, it } from "vitest";
import { checkGeneratedCoinco } from "../../support/coinco-check";

describe("a CoInCo-shaped release with the real release's oddities", () => {
  it("imports, reports exactly the odd entries with their lines, and the exported gold keeps every other target's substitutes and counts", () => {
    const c = checkGeneratedCoinco(1000);
    const g = c.generated;
    expect(c.report.instancesInFile).toBe(g.targets - 2); // the target not in its sentence and the repeated id are left out
    expect(c.report.instancesAdded).toBe(g.targets - 2);
    // Exactly the odd entries, in line order, each with what was done.
    expect(c.report.repairs.map((r) => [r.line, r.action])).toEqual(g.oddities.map((o) => [o.line, o.action]));
    c.report.repairs.forEach((r, k) => {
      expect(r.file).toBe("coinco.xml");
      expect(r.message).toContain(g.oddities[k].entry);
      expect(r.message).toContain(g.oddities[k].detail);
    });
    expect(c.lines[0]).toMatch(/^coinco\.xml:\d+: warning: target \d+, substitute "genus ;": repaired: kept as "genus"/);
    // The import record keeps the report.
    expect(c.stored).toEqual(JSON.parse(JSON.stringify(c.report.repairs)));
    expect(c.report.message).toContain("10 entries not carried as written (4 repaired, 6 left out)");
    expect(c.report.notes.join(" ")).toContain(`${g.problematic} targets are flagged problematic`);
    // Every expected target comes back in the gold exactly (≥ 99.5% of the file's targets is the bar).
    expect(c.goldKept).toBe(c.expectedTargets);
    expect(c.goldKept / g.targets).toBeGreaterThanOrEqual(0.995);
    expect(c.coincoKept).toBe(c.expectedTargets);
  });
});

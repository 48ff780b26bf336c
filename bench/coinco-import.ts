/**
 * The full CoInCo release's size through the import (issue #29): `npm run bench:import -- --coinco [--targets N]`.
 *
 * Generates a CoInCo-shaped file of 15,629 targets and some 110,000 substitutes with
 * the real release's odd entries at known lines (test/support/coinco-gen.ts; nothing of
 * the release itself), imports it in-process into a throw-away database, exports the
 * gold and the CoInCo XML, and checks what test/server/datasets/coinco-full.test.ts checks on a
 * smaller file: every odd entry reported with its line and nothing else, and the gold
 * keeping the substitutes and counts of ≥ 99.5% of the targets. Prints the times. Exit
 * 1 when a check fails.
 */
import { checkGeneratedCoinco } from "../test/support/coinco-check";
import { numberArg } from "./lib/setup";

export function coincoImportBench(): number {
  const targets = numberArg("targets", "COINCO_TARGETS", 15629);
  const c = checkGeneratedCoinco(targets);
  const g = c.generated;
  const log = (s: string) => process.stderr.write(s + "\n");
  log(`generated ${(g.xml.length / 1048576).toFixed(1)} MB: ${g.targets} targets, ${g.substitutes} substitutes, ${g.oddities.length} odd entries (${c.ms.generate.toFixed(0)} ms)`);
  log(c.report.message);
  for (const l of c.lines) log(`  ${l}`);
  const reported = c.report.repairs.map((r) => `${r.line} ${r.action}`).join(",");
  const expected = g.oddities.map((o) => `${o.line} ${o.action}`).join(",");
  const checks = [
    { name: "every odd entry reported with its line, nothing else", ok: reported === expected },
    { name: `gold keeps ${c.goldKept} of ${g.targets} targets (${((100 * c.goldKept) / g.targets).toFixed(2)}%, bar 99.5%)`, ok: c.goldKept / g.targets >= 0.995 && c.goldKept === c.expectedTargets },
    { name: `CoInCo XML keeps ${c.coincoKept} of ${g.targets} targets`, ok: c.coincoKept === c.expectedTargets },
  ];
  for (const k of checks) log(`${k.ok ? "PASS" : "FAIL"} ${k.name}`);
  log(`import ${c.ms.import.toFixed(0)} ms, gold export ${c.ms.gold.toFixed(0)} ms, CoInCo XML export ${c.ms.coinco.toFixed(0)} ms`);
  return checks.every((k) => k.ok) ? 0 : 1;
}

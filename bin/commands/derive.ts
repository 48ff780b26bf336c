/**
 * `lexgold derive`: the derived figures (#39; docs/derivations.md). Without options it brings the
 * figures every change queued up to date now (what the server's applier does in the background);
 * `--rebuild` derives them again from nothing, for one project or every project. Runs stored before
 * #39 get their items and outcomes written too.
 */
import type { Command } from "commander";
import { dbOption, openCliDb, run } from "./util";

export function register(program: Command): void {
  dbOption(
    program
      .command("derive")
      .option("--rebuild", "derive every figure again from nothing, instead of only what changes queued")
      .option("--project <name>", "only this project (default: every project)")
      .description("bring the derived figures (gold lines, counts, agreement sums, scores of stored runs) up to date"),
  ).action(async (opts: { rebuild?: boolean; project?: string; db?: string }) => {
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { listProjects } = await import("../../lib/server/corpus/projects");
    const derived = await import("../../lib/server/derived");
    const { runsWithoutItems, writeItemsOfStoredRun } = await import("../../lib/server/scoring/run-store");
    const db = await openCliDb(opts);
    const projects = opts.project ? [run(() => findProjectByName(db, SYSTEM, opts.project!))] : run(() => listProjects(db, SYSTEM));
    for (const p of projects) {
      const t0 = performance.now();
      const n = run(() => (opts.rebuild ? derived.rebuildProjectFigures(db, SYSTEM, p.id) : derived.bringFiguresUpToDate(db, SYSTEM, p.id)));
      const s = ((performance.now() - t0) / 1000).toFixed(1);
      // Runs stored before #39: their items and outcomes written (the server's applier does it in the background).
      const runs = runsWithoutItems(db, p.id);
      for (const id of runs) writeItemsOfStoredRun(db, id);
      const items = runs.length > 0 ? `; the items of ${runs.length} stored run${runs.length === 1 ? "" : "s"} written` : "";
      console.log(`${p.name}: ${opts.rebuild ? "derived again" : "brought up to date"} ${n.toLocaleString("en")} instance${n === 1 ? "" : "s"}${items} (${s} s)`);
    }
  });
}

/**
 * A vitest reporter that ends the run by naming the suites that did not run (#43 item 5): those that
 * compare against the real files in ../shared, skipped because a file was missing
 * (test/support/shared-data.ts records which), and any other skipped test with its file. Listed after
 * the summary, so that a green run without ../shared says plainly what it did not check.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { SKIP_LOG_VAR } from "./shared-data";

const ROOT = path.resolve(__dirname, "../..");

interface Skip {
  testFile: string;
  missing: string;
}

/** The outermost suite (or the test itself) of each skipped test of a module, with how many tests it holds. */
function skippedSuites(m: TestModule): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of m.children.allTests()) {
    if (t.result().state !== "skipped") continue;
    let top: { name: string; parent?: unknown; type?: string } = t;
    while (top.parent && (top.parent as { type?: string }).type === "suite") top = top.parent as typeof top;
    out.set(top.name, (out.get(top.name) ?? 0) + 1);
  }
  return out;
}

export default class SkipReport implements Reporter {
  private dir = "";
  private log = "";

  onInit(): void {
    this.dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-skips-"));
    this.log = path.join(this.dir, "skips.jsonl");
    // Read by the test processes, which start after this.
    process.env[SKIP_LOG_VAR] = this.log;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let lines: Skip[] = [];
    try {
      lines = readFileSync(this.log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Skip);
    } catch {
      // Nothing recorded: every suite found its files.
    }
    rmSync(this.dir, { recursive: true, force: true });
    const missingBy = new Map<string, Set<string>>();
    for (const s of lines) {
      if (!missingBy.has(s.testFile)) missingBy.set(s.testFile, new Set());
      missingBy.get(s.testFile)!.add(path.relative(ROOT, s.missing));
    }
    const shared: string[] = [];
    const other: string[] = [];
    let sharedSuites = 0;
    for (const m of modules) {
      const suites = skippedSuites(m);
      if (suites.size === 0) continue;
      const file = path.relative(ROOT, m.moduleId);
      const missing = missingBy.get(m.moduleId);
      if (missing) {
        // A suite skipped whole holds one placeholder test (its body reads the files it lacks): named, not counted.
        sharedSuites += suites.size;
        shared.push(`  ${file} — lacks ${[...missing].join(", ")}`, ...[...suites.keys()].map((name) => `      ${name}`));
      } else other.push(`  ${file}`, ...[...suites].map(([name, n]) => `      ${name} (${n} test${n === 1 ? "" : "s"})`));
    }
    if (shared.length === 0 && other.length === 0) return;
    const out: string[] = [""];
    if (shared.length > 0) {
      out.push(
        `SKIPPED: ${sharedSuites} suite${sharedSuites === 1 ? "" : "s"} comparing against the real task files in ../shared did not run, because these files are missing:`,
        ...shared,
        "  Put the shared data beside the checkout (../shared) to run them.",
      );
    }
    if (other.length > 0) out.push("SKIPPED for their own conditions (see each suite's runIf / skipIf):", ...other);
    process.stdout.write(`${out.join("\n")}\n`);
  }
}

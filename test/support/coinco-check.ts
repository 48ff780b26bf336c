/**
 * The CoInCo import checked end to end on a generated file (test/support/coinco-gen.ts):
 * import into a fresh project, the report, the gold the project exports (`export gold`)
 * and the CoInCo XML export, each compared with what the generator says the gold must
 * carry. Used by test/server/datasets/coinco-full.test.ts (a smaller file) and by
 * `npm run bench:import -- --coinco` (the full release's size).
 */
import { XMLParser } from "fast-xml-parser";
import { exportDataset, importDataset, type DatasetImportReport } from "../../lib/server/datasets/datasets";
import { projectGold } from "../../lib/server/gold/gold";
import { formatDiagnostic } from "../../lib/lexsub/diagnostics";
import { type GeneratedCoinco, generateCoinco } from "./coinco-gen";
import { projectFixture } from "./db";

export interface CoincoCheck {
  generated: GeneratedCoinco;
  report: DatasetImportReport;
  /** The report's entries, formatted as the CLI prints them. */
  lines: string[];
  /** Targets whose substitutes and counts the exported gold file carries exactly as expected. */
  goldKept: number;
  /** The same for the CoInCo XML export (repaired substitutes come back as the file had them). */
  coincoKept: number;
  /** The report as the import record keeps it (imports.repairs). */
  stored: unknown[];
  /** Targets the generator expects the gold to carry. */
  expectedTargets: number;
  ms: { generate: number; import: number; gold: number; coinco: number };
}

/** Gold lines `lexelt id :: sub n;…;` → id → substitute → count. */
function readGold(text: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of text.split("\n")) {
    const at = line.indexOf(" :: ");
    if (at < 0) continue;
    const id = line.slice(0, at).split(" ")[1];
    const entries = new Map<string, number>();
    for (const e of line.slice(at + 4).split(";")) {
      if (e === "") continue;
      const sp = e.lastIndexOf(" ");
      entries.set(e.slice(0, sp), Number(e.slice(sp + 1)));
    }
    out.set(id, entries);
  }
  return out;
}

/** A CoInCo XML file's targets → substitute → count, read independently of lexgold's reader. */
function readCoinco(xml: string): Map<string, Map<string, number>> {
  const p = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", parseTagValue: false, isArray: (n) => ["sent", "token", "subst"].includes(n) });
  const doc = p.parse(xml) as { document: { sent: { tokens: { token: Array<Record<string, string> & { substitutions?: { subst?: Record<string, string>[] } }> } }[] } };
  const out = new Map<string, Map<string, number>>();
  for (const s of doc.document.sent) {
    for (const t of s.tokens.token) {
      // A target id used twice: the first is the target (the reader leaves the second out, its token stays in the sentence).
      if (t.id === "XXX" || out.has(t.id)) continue;
      out.set(t.id, new Map((t.substitutions?.subst ?? []).map((x) => [x.lemma, Number(x.freq)])));
    }
  }
  return out;
}

const same = (a: Map<string, number> | undefined, b: Map<string, number>) => a !== undefined && a.size === b.size && [...b].every(([k, v]) => a.get(k) === v);

export function checkGeneratedCoinco(targets: number): CoincoCheck {
  let t = performance.now();
  const generated = generateCoinco(targets);
  const ms = { generate: performance.now() - t, import: 0, gold: 0, coinco: 0 };
  const { db, coord, project } = projectFixture();
  t = performance.now();
  const report = importDataset(db, coord, project.id, { format: "coinco", fileName: "coinco.xml", bytes: new TextEncoder().encode(generated.xml) });
  ms.import = performance.now() - t;
  t = performance.now();
  const gold = readGold(projectGold(db, coord, project.id).gold);
  ms.gold = performance.now() - t;
  t = performance.now();
  const back = readCoinco(exportDataset(db, coord, project.id, "coinco").text);
  ms.coinco = performance.now() - t;
  // The CoInCo XML export writes a repaired substitute back as the file had it.
  const asInFile = new Map<string, string>([
    ["genus", "genus ;"],
    ["exact u", "exact ; u"],
  ]);
  let goldKept = 0;
  let coincoKept = 0;
  for (const [id, subs] of generated.expected) {
    if (same(gold.get(id), subs)) goldKept++;
    if (same(back.get(id), new Map([...subs].map(([k, v]) => [asInFile.get(k) ?? k, v])))) coincoKept++;
  }
  const stored = JSON.parse((db.$client.prepare("select repairs from imports where project_id = ?").get(project.id) as { repairs: string }).repairs) as unknown[];
  return { generated, report, stored, lines: report.repairs.map(formatDiagnostic), goldKept, coincoKept, expectedTargets: generated.expected.size, ms };
}

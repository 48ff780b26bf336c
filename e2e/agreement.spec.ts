import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type AgreementReport, computeAgreement } from "../lib/lexsub/agreement";
import { parseLexeltXml } from "../lib/lexsub/formats/lexelt";
import { parseResponsesTsv } from "../lib/lexsub/formats/responses";
import { deriveGold } from "../lib/lexsub/gold";
import { wordnetLemmaProposer } from "../lib/wordnet/load";
import { downloadText, openDemoTab, signIn } from "./helpers";

test.describe.configure({ mode: "serial" });

/**
 * What the demo's seeded responses give, computed here through the library from
 * the sample files (not copied from the page): the figures the page must show.
 */
function expectedReport(): AgreementReport {
  const root = path.resolve(import.meta.dirname, "..");
  const xml = readFileSync(path.join(root, "samples/demo.xml"), "utf8");
  const parsed = parseLexeltXml(xml, "demo.xml");
  expect(parsed.errors).toEqual([]);
  const instances = parsed.corpus!.lexelts.flatMap((l) => l.instances.map((i) => ({ lexelt: l.item, instanceId: i.id })));
  const tsv = parseResponsesTsv(readFileSync(path.join(root, "samples/demo-responses.tsv"), "utf8"), "demo-responses.tsv");
  expect(tsv.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  // The page derives as lib/server/gold/gold.ts does: the demo records no lemma decision, so every form as typed.
  const gold = deriveGold(instances, tsv.responses, { propose: wordnetLemmaProposer(), unreviewed: "keep" });
  return computeAgreement(gold.items, { bootstrapIterations: 1000, seed: 1 });
}

const pct = (x: number | null) => (x === null ? "—" : `${(100 * x).toFixed(1)}%`);

let projectId = 0;

test("the coordinator sees the headline figures and the per-annotator table", async ({ page }) => {
  const want = expectedReport();
  expect(want.pairwise).not.toBeNull();
  await signIn(page, "coordinator");
  projectId = await openDemoTab(page, "Agreement");

  // The headline pairwise figure is the library's, to the last digit behind the rounded text.
  const pairwise = page.getByRole("region", { name: "Pairwise agreement" });
  await expect(pairwise.locator("[data-value]")).toHaveAttribute("data-value", String(want.pairwise));
  await expect(pairwise.locator("[data-value]")).toHaveText(pct(want.pairwise));
  await expect(pairwise).toContainText(`over ${want.pairs} pairs of annotators`);
  await expect(pairwise).toContainText(`95% interval ${pct(want.intervals.pairwise!.low)} – ${pct(want.intervals.pairwise!.high)}`);
  const items = page.getByRole("region", { name: "Items compared (|T|)" });
  await expect(items.locator("[data-value]")).toHaveText(String(want.items));
  await expect(items).toContainText(`${want.itemsWithMode} with a mode`);
  await expect(page.getByRole("region", { name: "Agreement with the mode" }).locator("[data-value]")).toHaveText(pct(want.modeAgreement));
  await expect(page.getByRole("region", { name: "Multiword detection" }).locator("[data-value]")).toHaveText(pct(want.mwDetection));
  await expect(page.getByRole("region", { name: "Multiword identification" }).locator("[data-value]")).toHaveText(pct(want.mwIdentification));
  // α comes from its computation in the background: the page never waits for it and shows it once kept (#39).
  await expect(page.getByRole("region", { name: "Krippendorff's α (MASI)" }).locator("[data-value]")).toHaveText(want.alphaMasi!.toFixed(3));
  await expect(page.getByTestId("alpha-as-of")).toBeVisible();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("region", { name: "The figures" }).screenshot({ path: `test-results/screens/agreement-figures-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // A definition opens under the figure.
  await pairwise.getByText("What is this?").click();
  await expect(pairwise.getByText(/\|A ∩ B\| \/ \|A ∪ B\|/)).toBeVisible();

  // Per annotator: one row each (annotator1 answered nothing), with the leave-one-out figures.
  const table = page.getByRole("table", { name: "Per annotator" });
  await expect(table.locator("tbody tr")).toHaveCount(want.perAnnotator.length);
  for (const a of want.perAnnotator) {
    const row = table.locator(`tr[data-annotator="${a.annotator}"]`);
    await expect(row.getByRole("rowheader")).toContainText(a.annotator);
    const cells = row.getByRole("cell");
    await expect(cells.nth(0)).toHaveText(String(a.answered));
    await expect(cells.nth(6)).toContainText(pct(a.pairwise));
    await expect(cells.nth(9)).toContainText(pct(a.without.pairwise));
    const up = a.without.pairwise! > want.pairwise! || (a.without.modeAgreement ?? 0) > (want.modeAgreement ?? 0);
    if (up) await expect(row).toContainText("agreement rises without them");
    else await expect(row).not.toContainText("agreement rises without them");
  }

  // The PoS table sorts by a column on click, and back.
  const pos = page.getByRole("table", { name: "By part of speech" });
  await pos.getByRole("button", { name: /^Pairwise/ }).click();
  await expect(pos.getByRole("columnheader", { name: /^Pairwise/ })).toHaveAttribute("aria-sort", "descending");
  const byPairwise = [...want.byPos].sort((x, y) => (y.pairwise ?? -1) - (x.pairwise ?? -1)).map((p) => pct(p.pairwise));
  await expect(pos.locator("tbody td:nth-child(5)")).toHaveText(byPairwise);
  await pos.getByRole("button", { name: /^Pairwise/ }).click();
  await expect(pos.getByRole("columnheader", { name: /^Pairwise/ })).toHaveAttribute("aria-sort", "ascending");
  await expect(pos.locator("tbody td:nth-child(5)")).toHaveText([...byPairwise].reverse());

  // The histogram and the lowest items, linked to the Gold page.
  await expect(page.getByRole("img", { name: /Per-item pairwise agreement over \d+ items/ })).toBeVisible();
  const lowest = page.getByRole("region", { name: "Lowest agreement" });
  const first = want.lowest[0];
  const card = lowest.getByRole("article", { name: `${first.lexelt} ${first.instanceId}` });
  await expect(card).toContainText(pct(first.pairwise));
  await expect(card.getByRole("link")).toHaveAttribute("href", new RegExp(`/projects/${projectId}/gold\\?view=instances&lexelt=${first.lexelt.replace(".", "\\.")}&instance=${first.instanceId}#inst-${first.instanceId}$`));
  // The link opens that instance's answers side by side on the Gold page.
  await card.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Gold");
  await expect(page.getByRole("article", { name: `${first.lexelt} ${first.instanceId}` })).toBeInViewport();
});

test("the coordinator downloads the report as JSON and CSV", async ({ page }) => {
  const want = expectedReport();
  await signIn(page, "coordinator");
  await page.goto(`/projects/${projectId}/agreement`);

  const json = await downloadText(page, /Download report \(JSON\)/);
  expect(json.name).toBe("demo-agreement.json");
  const report = JSON.parse(json.text) as AgreementReport;
  for (const k of ["items", "itemsWithMode", "pairwise", "modeAgreement", "mwDetection", "mwIdentification", "alphaMasi", "perAnnotator", "byPos", "byLexelt", "intervals", "perItem", "lowest", "histogram"]) {
    expect(report).toHaveProperty(k);
  }
  expect(report.pairwise).toBe(want.pairwise);
  expect(report.alphaMasi).toBe(want.alphaMasi);
  expect(report.perAnnotator.map((a) => a.annotator)).toEqual(want.perAnnotator.map((a) => a.annotator));
  expect(Object.keys(report.perAnnotator[0].without).sort()).toEqual(["items", "itemsWithMode", "modeAgreement", "modeResponses", "pairs", "pairwise"]);

  const items = await downloadText(page, /Per item \(CSV\)/);
  expect(items.name).toBe("demo-agreement-items.csv");
  const lines = items.text.split("\r\n");
  expect(lines[0]).toBe("lexelt,instanceId,pos,annotators,pairs,pairwise,mode,modeResponses,modeAgreement");
  expect(lines.at(-1)).toBe("");
  expect(lines.length - 2).toBe(want.perItem.length);
  const first = want.perItem[0];
  expect(lines[1].startsWith(`${first.lexelt},${first.instanceId},${first.pos},${first.annotators},${first.pairs},${first.pairwise ?? ""},`)).toBe(true);

  const annotators = await downloadText(page, /Per annotator \(CSV\)/);
  expect(annotators.name).toBe("demo-agreement-annotators.csv");
  const rows = annotators.text.trimEnd().split("\r\n");
  expect(rows[0].split(",")).toContain("without.pairwise");
  expect(rows.slice(1).map((r) => r.split(",")[0])).toEqual(want.perAnnotator.map((a) => a.annotator));
});

test("an annotator is refused the Agreement page and its downloads", async ({ page }) => {
  const anonymous = await page.request.get(`/api/projects/${projectId}/agreement?format=json`);
  expect(anonymous.status()).toBe(401);
  await signIn(page, "annotator2");
  await page.goto(`/projects/${projectId}/agreement`);
  await expect(page).toHaveURL(/\/annotate/);
  await expect(page.getByText("Pairwise agreement")).toHaveCount(0);
  for (const q of ["format=json", "format=csv&table=items", "format=csv&table=annotators", "format=csv&table=lexelts"]) {
    const res = await page.request.get(`/api/projects/${projectId}/agreement?${q}`);
    expect(res.status(), q).toBe(403);
    const body = await res.text();
    expect(body).not.toContain("pairwise");
    expect(JSON.parse(body)).toMatchObject({ ok: false });
  }
});

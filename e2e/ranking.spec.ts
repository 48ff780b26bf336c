import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { openDemoTab, signIn } from "./helpers";

const sample = (name: string) => path.resolve(import.meta.dirname, "../samples", name);
// Screenshots only when asked (SCREENSHOT_DIR), so a test run never rewrites tracked files.
const shots = process.env.SCREENSHOT_DIR;

async function openRanking(page: Page): Promise<void> {
  await openDemoTab(page, "Scoring");
  await page.getByRole("link", { name: "Ranking measures" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ranking measures");
}

test("the coordinator scores two TSAR runs and sees them ranked; GAP against the project's gold", async ({ page }) => {
  await signIn(page, "coordinator");
  await openRanking(page);

  // Missing files are named before anything is sent.
  await page.getByRole("button", { name: "Score" }).click();
  await expect(page.locator('.notice[role="alert"]')).toContainText("Choose at least one ranked output");

  await page.getByLabel("Gold", { exact: true }).setInputFiles(sample("ranking/tsar-gold.tsv"));
  await page.getByLabel("Ranked outputs", { exact: true }).setInputFiles([sample("ranking/tsar-run-weak.tsv"), sample("ranking/tsar-run-good.tsv")]);
  await page.getByRole("button", { name: "Score" }).click();
  const result = page.getByLabel("Ranking result");
  const rows = result.getByRole("table").getByRole("row");
  await expect(rows.nth(1)).toContainText("tsar-run-good.tsv");
  await expect(rows.nth(2)).toContainText("tsar-run-weak.tsv");
  // weak: ACC@1 1/3 and MAP@3 (1/6 + 2/3)/3, floored as tsar_eval.py prints them
  await expect(rows.nth(2)).toContainText("0.3333");
  await expect(rows.nth(2)).toContainText("0.2777");
  await page.setViewportSize({ width: 1440, height: 900 });
  if (shots) await page.screenshot({ path: path.join(shots, "ranking-1440.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  if (shots) await page.screenshot({ path: path.join(shots, "ranking-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // A line the gold lacks is refused with file and line.
  await page.getByLabel("Ranked outputs", { exact: true }).setInputFiles({ name: "stray.tsv", mimeType: "text/plain", buffer: Buffer.from("Not in the gold.\tgold\tx\n") });
  await page.getByRole("button", { name: "Score" }).click();
  await expect(page.locator('.notice[role="alert"]')).toContainText("stray.tsv:1");

  // GAP against the project's own gold, the sample oot read as a ranking.
  await page.getByLabel("Benchmark").selectOption("gap");
  await page.getByLabel("Gold (optional)").setInputFiles([]);
  await page.getByLabel("Ranked outputs", { exact: true }).setInputFiles(sample("demo-system.oot"));
  await page.getByRole("button", { name: "Score" }).click();
  await expect(page.getByLabel("Ranking result").getByRole("table").getByRole("row").nth(1)).toContainText("demo-system.oot");
});

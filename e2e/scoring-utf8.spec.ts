import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

// A Spanish gold (see test/server/scoring/scoring-utf8.test.ts for the hand figures): read as bytes, as score.pl
// reads it, "pequeño 3" is not read and "caída 2" reads as "da 2", so the exact answers earn nothing;
// read as UTF-8 text (perl -CSD score.pl) they earn P = (3/4 + 2/3)/2 = 70.83 and every mode.
const GOLD = ["niño.n 1 :: pequeño 3;chico 1;", "caer.v 2 :: caída 2;descenso 1;", ""].join("\n");
const RUN = "niño.n 1 :: pequeño\ncaer.v 2 :: caída\n";
const file = (name: string, text: string) => ({ name, mimeType: "text/plain", buffer: Buffer.from(text) });

async function newProject(page: Page): Promise<number> {
  await page.goto("/projects");
  const name = `utf8 ${Date.now()}`;
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  return Number(/\/projects\/(\d+)/.exec(page.url())![1]);
}

test("read as bytes, a run shows its UTF-8 figures under it; the switch re-scores the files read as UTF-8 text", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await newProject(page);
  await page.goto(`/projects/${id}/scoring`);
  await page.getByLabel("Gold (for best and oot)").setInputFiles(file("es.gold", GOLD));
  await page.getByRole("button", { name: "Store and rank against it" }).click();
  await expect(page.getByText(/Ranking the runs scored with es/)).toBeVisible();
  await page.getByLabel("System file").setInputFiles(file("oracle.best", RUN));
  await page.getByRole("button", { name: "Upload and score" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stored oracle" })).toBeVisible();

  await expect(page.getByLabel("bytes (score.pl)")).toBeChecked();
  const row = page.getByRole("table", { name: /^best/ }).getByRole("row").nth(1);
  await expect(row.getByRole("cell").nth(2)).toHaveText("0.00");
  await expect(row.getByRole("rowheader")).toContainText("Read as UTF-8 text (perl -CSD score.pl): P 70.83, R 70.83, mode P 100.00.");

  await page.getByLabel("UTF-8 text (perl -CSD)").check();
  await expect(row.getByRole("cell").nth(2)).toHaveText("70.83");
  await expect(row.getByRole("rowheader")).not.toContainText("Read as UTF-8 text");
  await expect(page).toHaveURL(/reading=utf8/);
  await page.reload();
  await expect(page.getByLabel("UTF-8 text (perl -CSD)")).toBeChecked();
  await expect(page.getByRole("table", { name: /^best/ }).getByRole("row").nth(1).getByRole("cell").nth(2)).toHaveText("70.83");
});

import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

// A crafted gold where two documented repairs matter (see test/server/scoring/scoring-repaired.test.ts for the
// hand figures): item 5's "sharpness" holds the letters "pn", which score.pl drops (pn rule); item 6's
// mode "well-known" is hyphenated, never hit by score.pl (hyphen-mode rule).
const GOLD = ["bright.a 1 :: intelligent 3;clever 2;smart 1;", "bright.a 2 :: luminous 2;light 1;", "keen.a 5 :: sharpness 2;edge 1;", "keen.a 6 :: well-known 2;famous 1;", ""].join(
  "\n",
);
// By recall, alpha leads on score.pl's figures (38.89 against 33.33), beta on the repaired ones (41.67 against 29.17).
const ALPHA = "bright.a 1 :: intelligent\nbright.a 2 :: luminous\n";
const BETA = "bright.a 1 :: clever\nkeen.a 5 :: sharpness\nkeen.a 6 :: well known\n";
const file = (name: string, text: string) => ({ name, mimeType: "text/plain", buffer: Buffer.from(text) });

async function newProject(page: Page): Promise<number> {
  await page.goto("/projects");
  const name = `repairs ${Date.now()}`;
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  return Number(/\/projects\/(\d+)/.exec(page.url())![1]);
}

/** The coordinator, signed in, on a new project's Scoring page with the crafted gold stored and chosen: the project's id. */
async function withCraftedGold(page: Page): Promise<number> {
  await signIn(page, "coordinator");
  const id = await newProject(page);
  await page.goto(`/projects/${id}/scoring`);
  await page.getByLabel("Gold (for best and oot)").setInputFiles(file("crafted.gold", GOLD));
  await page.getByRole("button", { name: "Store and rank against it" }).click();
  await expect(page.getByText(/Ranking the runs scored with crafted/)).toBeVisible();
  return id;
}

async function upload(page: Page, name: string, text: string) {
  await page.getByLabel("System file").setInputFiles(file(name, text));
  await page.getByRole("button", { name: "Upload and score" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Stored ${name.replace(/\.best$/, "")}` })).toBeVisible();
}

async function shoot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("score.pl's figures with the repaired ones beside them; the switch re-scores and re-ranks by the repaired figures", async ({ page }) => {
  const id = await withCraftedGold(page);
  await upload(page, "alpha.best", ALPHA);
  await upload(page, "beta.best", BETA);
  await expect(page.getByLabel("score.pl (official)")).toBeChecked();

  // Official: ranked by recall, alpha first; each figure a repair changes has the repaired one beside it.
  const rows = page.getByRole("table", { name: /^best/ }).getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1).getByRole("rowheader")).toContainText("alpha");
  await expect(rows.nth(1).getByRole("cell").nth(3)).toHaveText("38.89 (repaired 29.17)");
  await expect(rows.nth(2).getByRole("rowheader")).toContainText("beta");
  await expect(rows.nth(2).getByRole("cell").nth(3)).toHaveText("33.33 (repaired 41.67)");
  await expect(rows.nth(2).getByRole("cell").nth(1)).toHaveText("2 / 3 (repaired 3 / 4)");
  // The whole scoring behind them ran in the background: a reload says when, with the form to run it again (#39).
  await page.reload();
  const whole = page.getByText(/come from scoring every run whole/).locator("xpath=..");
  await expect(whole).toContainText(/as of \d\d:\d\d:\d\d/);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await whole.screenshot({ path: `test-results/screens/scoring-whole-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  // Precision does not move for alpha: nothing beside it.
  await expect(rows.nth(1).getByRole("cell").nth(2)).toHaveText("58.33");
  // A line per run naming the rules, opening on what each does.
  await expect(rows.nth(1).getByRole("rowheader")).toContainText("pn: 1 item");
  await expect(rows.nth(2).getByRole("rowheader")).toContainText("pn: 1 item, hyphen-mode: 1 item");
  await rows.nth(2).getByText(/Repairs differ/).click();
  await expect(rows.nth(2).getByRole("rowheader")).toContainText("a hyphenated mode is never hit");
  await shoot(page, "scoring-official");

  // The switch: every run re-scored with the repairs, beta now first, and no figure beside another.
  await page.getByLabel("repaired", { exact: true }).check();
  await expect(page).toHaveURL(/[?&]figures=repaired\b/);
  await expect(rows.nth(1).getByRole("rowheader")).toContainText("beta");
  await expect(rows.nth(1).getByRole("cell").nth(3)).toHaveText("41.67");
  await expect(rows.nth(2).getByRole("rowheader")).toContainText("alpha");
  await expect(rows.nth(2).getByRole("cell").nth(3)).toHaveText("29.17");
  await expect(page.getByRole("table", { name: /^best/ })).not.toContainText("(repaired");

  // A run's detail in the repaired mode: the repaired report, the changes with their ids, an id shows its row.
  await page.getByRole("button", { name: "Details of beta" }).click();
  const detail = page.getByRole("region", { name: /beta/ });
  await expect(detail.getByLabel("Report with the repairs")).toContainText("Total = 4, attempted = 3");
  await expect(detail.getByRole("region", { name: /differ from score\.pl/ })).toContainText("R 33.33");
  await detail.getByRole("button", { name: "Show item 5" }).click();
  const items = detail.getByRole("table", { name: "Items" }).getByRole("row");
  await expect(items).toHaveCount(2);
  await expect(items.nth(1)).toContainText("sharpness ✓ found");
  await shoot(page, "scoring-repaired");

  const downloading = page.waitForEvent("download");
  await detail.getByRole("link", { name: "Download report", exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("beta.best.repaired.txt");
  expect(await readFile((await download.path())!, "utf8")).toBe(await detail.getByLabel("Report with the repairs").textContent());

  // A reload keeps the mode and the stored gold.
  await page.reload();
  await expect(page.getByLabel("repaired", { exact: true })).toBeChecked();
  await expect(page.getByText(/Ranking the runs scored with crafted/)).toBeVisible();
  await expect(rows.nth(1).getByRole("rowheader")).toContainText("beta");
  await page.getByLabel("score.pl (official)").check();
  await expect(page).not.toHaveURL(/figures=/);

  // The routes' parameter: a bad value is refused; the repaired figures are the coordinator's only.
  expect((await page.request.get(`/api/projects/${id}/scoring/results?figures=fixed`)).status()).toBe(400);
  expect((await page.request.get(`/api/projects/${id}/scoring/results?figures=repaired`)).status()).toBe(200);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await signIn(page, "annotator2");
  for (const route of ["results", "scores"]) {
    expect((await page.request.get(`/api/projects/${id}/scoring/${route}?figures=repaired`)).status()).toBe(403);
    expect((await page.request.get(`/api/projects/${id}/scoring/${route}?figures=fixed`)).status()).toBe(403);
  }
});

test("the table keeps looking for the whole scoring's figures past a look that fails", async ({ page }) => {
  const id = await withCraftedGold(page);
  // The board asked for after the upload says the run is being scored whole; the table's first look at it fails.
  let asks = 0;
  await page.route(`**/api/projects/${id}/scoring/results**`, (route) => {
    asks++;
    if (asks !== 2) return route.continue();
    return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ ok: false, message: "The database is busy: nothing was saved. Send it again in a moment." }) });
  });
  await upload(page, "alpha.best", ALPHA);
  const rows = page.getByRole("table", { name: /^best/ }).getByRole("row");
  await expect(rows.nth(1).getByRole("cell").nth(3)).toHaveText("38.89 (repaired 29.17)", { timeout: 20_000 });
  expect(asks).toBeGreaterThanOrEqual(3);
  // The failed look's notice went with the look that was answered.
  await expect(page.getByText("The database is busy")).toHaveCount(0);
});

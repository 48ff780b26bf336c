/**
 * Releases and charts (issue #42), in the browser. Without JavaScript: the coordinator saves the
 * datasheet's answers, makes a release (a job: the page reloads itself until it is made), finds it
 * listed, opens its page and downloads its .tar.gz, which matches its SHA-256. With JavaScript: the
 * Agreement and Progress pages draw their charts as images named by their titles (Table 8: test/charts).
 * SCREENSHOT_DIR=dir saves each page at 1440 and 390 wide.
 */
import crypto from "node:crypto";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { openDemoTab, signIn } from "./helpers";

async function shoot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("without JavaScript the coordinator fills the datasheet, makes a release and downloads it", async ({ page, browser }) => {
  await signIn(page, "coordinator");
  const id = await openDemoTab(page, "Releases");
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const p = await noScript.newPage();
  await p.goto(`/projects/${id}/releases`);
  await expect(p.getByRole("heading", { level: 1 })).toHaveText("Releases");

  // The datasheet's own answers, saved by a plain form post.
  await p.getByLabel("Authors").fill("Smith, Ann");
  await p.getByLabel("Licence").fill("CC-BY-4.0");
  await p.getByLabel("Motivation").fill("A demonstration of lexgold's releases.");
  await p.getByRole("button", { name: "Save answers" }).click();
  await expect(p.getByRole("status").filter({ hasText: "The datasheet's answers are saved" })).toBeVisible();
  await expect(p.getByLabel("Licence")).toHaveValue("CC-BY-4.0");
  // A licence that is not an SPDX identifier is refused, saying why.
  await p.getByLabel("Licence").fill("free for all");
  await p.getByRole("button", { name: "Save answers" }).click();
  await expect(p.getByRole("alert")).toContainText("SPDX identifier");

  // A release: a version of this run's own (releases never change, and the demo database is shared by the tests).
  const version = `1.${Date.now() % 100000}.0`;
  await p.getByLabel("Version").fill(version);
  await p.getByRole("button", { name: "Make release" }).click();
  // The job's page reloads itself until the release is made.
  await expect(p.getByRole("status").filter({ hasText: `Release ${version} is made` })).toBeVisible({ timeout: 60_000 });
  const row = p.getByRole("row").filter({ has: p.getByRole("link", { name: version, exact: true }) });
  await expect(row).toContainText("40");
  await shoot(p, "releases");

  // The same version again is refused, nothing made.
  await p.getByLabel("Version").fill(version);
  await p.getByRole("button", { name: "Make release" }).click();
  await expect(p.getByRole("alert")).toContainText(`already has a release ${version}`);

  // Its page: the facts (or the changes), the files with their checksums, the download.
  await row.getByRole("link", { name: version, exact: true }).click();
  await expect(p.getByRole("heading", { level: 1 })).toHaveText(`demo ${version}`);
  await expect(p.getByRole("rowheader", { name: "data/answers.jsonl" })).toBeVisible();
  await expect(p.getByRole("rowheader", { name: "agreement/pair-agreement.svg" })).toBeVisible();
  const sha = (await p.locator("p", { hasText: "SHA-256 of the archive" }).locator("code").textContent())!.trim();
  // Its plots as the archive holds them (images that load, named by their descriptions), and a file of its list opened.
  const plot = p.getByRole("region", { name: "Plots" }).getByRole("img", { name: /pair of annotators/ });
  await plot.scrollIntoViewIfNeeded();
  await expect.poll(() => plot.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  await expect(p.getByRole("region", { name: "Plots" }).getByRole("figure")).toHaveCount(await p.getByRole("rowheader", { name: /^agreement\/.*\.svg$/ }).count());
  const goldFile = await p.request.get((await p.getByRole("link", { name: "formats/demo.gold", exact: true }).getAttribute("href"))!);
  expect(goldFile.status()).toBe(200);
  expect(goldFile.headers()["content-security-policy"]).toContain("sandbox");
  expect(await goldFile.text()).toMatch(/^\S+ \S+ :: \S/m);
  await p.getByRole("heading", { name: "Plots" }).scrollIntoViewIfNeeded();
  await shoot(p, "release-plots");
  await p.getByRole("heading", { level: 1 }).scrollIntoViewIfNeeded();
  await shoot(p, "release");
  const href = await p.getByRole("link", { name: /^Download demo-.*\.tar\.gz$/ }).getAttribute("href");
  const res = await p.request.get(href!);
  expect(res.status()).toBe(200);
  const bytes = await res.body();
  expect(crypto.createHash("sha256").update(bytes).digest("hex")).toBe(sha);
  expect(res.headers()["x-checksum-sha256"]).toBe(sha);
  await noScript.close();
});

test("the Agreement and Progress pages draw their charts, each an image named by its title", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await openDemoTab(page, "Agreement");
  await expect(page.getByRole("img", { name: /^Per-item pairwise agreement over \d+ items$/ })).toBeVisible();
  const heatmap = page.getByRole("img", { name: /^Pairwise agreement of each pair of annotators \(4 annotators\)$/ });
  await expect(heatmap).toBeVisible();
  await expect(heatmap).toHaveAccessibleDescription(/Lowest: .* highest: /);
  // The numbers are in a table for screen readers: six pairs of four annotators.
  const numbers = page.getByRole("figure", { name: /^Pairwise agreement of each pair/ }).getByRole("table", { name: "The chart's numbers" });
  await expect(numbers.getByRole("row")).toHaveCount(1 + 6);
  await page.getByRole("heading", { name: "Agreement between pairs of annotators" }).scrollIntoViewIfNeeded();
  await shoot(page, "agreement-charts");

  await page.goto(`/projects/${id}/progress`);
  await expect(page.getByRole("img", { name: /^Answers per day, by annotator/ })).toBeVisible();
  await shoot(page, "progress-charts");
});

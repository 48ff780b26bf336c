import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const sample = (name: string) => path.resolve(import.meta.dirname, "../samples", name);

async function demoProjectId(page: Page): Promise<number> {
  await page.goto("/projects");
  await page.getByRole("link", { name: /^demo/ }).first().click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  return Number(/\/projects\/(\d+)/.exec(page.url())![1]);
}

async function upload(page: Page, file: string, name?: string) {
  await page.getByLabel("System file").setInputFiles(sample(file));
  if (name) await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Upload and score" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Stored/ })).toBeVisible();
}

test("the coordinator uploads systems, sees them ranked, opens a run and downloads its report", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await demoProjectId(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Scoring" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Scoring");
  await expect(page.getByText(/Ranking the runs scored with the gold derived from demo/)).toBeVisible();

  // The sample best file, then a weaker one made from it in the test (every answer a wrong word).
  await upload(page, "demo-system.best");
  await expect(page.getByRole("status").filter({ hasText: /^Stored/ })).toContainText("Stored demo-system (best): 39 answer lines");
  const sampleText = await readFile(sample("demo-system.best"), "utf8");
  const weak = sampleText.replace(/:: .*$/gm, ":: banana");
  await page.getByLabel("System file").setInputFiles({ name: "weak.best", mimeType: "text/plain", buffer: Buffer.from(weak) });
  await page.getByRole("button", { name: "Upload and score" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Stored weak" })).toBeVisible();
  // A name already taken is refused by the job that stores runs, the field marked, nothing stored.
  await page.getByLabel("System file").setInputFiles({ name: "weak.best", mimeType: "text/plain", buffer: Buffer.from(weak) });
  await page.getByRole("button", { name: "Upload and score" }).click();
  await expect(page.getByRole("alert").filter({ hasText: 'A best run named "weak" is already stored' })).toBeVisible();
  await expect(page.getByText("Name taken.")).toBeVisible();

  // Ranked: the sample first, with the figures the official scorer prints.
  const best = page.getByRole("table", { name: /^best/ });
  const rows = best.getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("demo-system");
  await expect(rows.nth(2)).toContainText("weak");
  await expect(rows.nth(2)).toContainText("0.00");
  // The unrounded value is in the tooltip.
  // Cells: rank, attempted, P, R, mode P, mode R (the system name is the row header).
  const recall = rows.nth(1).getByRole("cell").nth(3);
  const shown = (await recall.textContent())!.trim();
  expect(shown).toMatch(/^\d+\.\d\d$/);
  const title = (await recall.getAttribute("title"))!;
  const exact = Number(title.split(" ")[0]);
  expect((Math.trunc(exact * 10000 + 0.5) / 100).toFixed(2)).toBe(shown);

  // A second type gets its own table.
  await upload(page, "demo-system.mw");
  await expect(page.getByRole("table", { name: /^multiword/ }).getByRole("row")).toHaveCount(2);
  // Beside the mw figures: which multiwords count (the Gold tab's mwgold lines are not all scored).
  await expect(page.getByTestId("mw-note")).toContainText("Only majority multiwords count");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("mw-note").locator("xpath=..").screenshot({ path: `test-results/screens/scoring-mw-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Detail: the official report, the PoS breakdown and the items.
  await page.getByRole("button", { name: "Details of demo-system" }).first().click();
  const detail = page.getByRole("region", { name: /demo-system/ });
  const report = detail.getByLabel("Official report");
  await expect(report).toContainText("Total = 39, attempted = 39");
  await expect(report).toContainText(`precision = ${shown}, recall = ${shown}\n`);
  await expect(detail.getByRole("row", { name: /^v\b/ })).toBeVisible();
  await expect(detail.getByRole("table", { name: "Items" }).getByRole("row")).toHaveCount(40);
  await detail.getByLabel("Filter").fill("d16");
  await expect(detail.getByRole("table", { name: "Items" }).getByRole("row")).toHaveCount(2);
  await expect(detail.getByRole("table", { name: "Items" })).toContainText("seashell");
  // A page of items from the kept outcomes, found among every attempted item (#39).
  await expect(detail.getByText("Items 1–1 of 1 (of 39 attempted)")).toBeVisible();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await detail.screenshot({ path: `test-results/screens/scoring-run-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await detail.getByLabel("Filter").fill("");
  await expect(detail.getByRole("table", { name: "Items" }).getByRole("row")).toHaveCount(40);

  const downloading = page.waitForEvent("download");
  await detail.getByRole("link", { name: "Download report", exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("demo-system.best.txt");
  const text = await readFile((await download.path())!, "utf8");
  expect(text).toBe(await report.textContent());
  expect(text.split("\n")[1]).toBe(`precision = ${shown}, recall = ${shown}`);

  // Side by side.
  const compare = page.getByRole("table", { name: "Compare systems" });
  await expect(compare.getByRole("columnheader").nth(1)).toContainText("demo-system");

  // JSON of every run.
  const jsonDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download scores (JSON)" }).click();
  const json = JSON.parse(await readFile((await (await jsonDownload).path())!, "utf8"));
  expect(json.runs.map((r: { name: string }) => r.name)).toEqual(["demo-system", "weak", "demo-system"]);

  // A gold uploaded and stored with the project: the project's own gold, downloaded, gives the same figures
  // to the same system uploaded with it; the runs of each gold are ranked apart, and a reload keeps the gold.
  const goldText = await (await page.request.get(`/api/projects/${id}/gold?file=gold`)).text();
  expect(goldText).toContain("quiet.a d1 :: ");
  await page.getByLabel("Gold (for best and oot)").setInputFiles({ name: "demo-copy.gold", mimeType: "text/plain", buffer: Buffer.from(goldText) });
  await page.getByRole("button", { name: "Store and rank against it" }).click();
  await expect(page.getByText(/Ranking the runs scored with demo-copy/)).toBeVisible();
  await expect(page.getByRole("radio", { name: /demo-copy/ })).toBeChecked();
  await expect(page.getByText("No system run is scored with demo-copy yet.")).toBeVisible();
  await expect(page.getByRole("button", { name: "3 runs with the project’s gold" })).toBeVisible();
  // A file whose name says nothing of its type (as BL.out): read from its content.
  await page.getByLabel("System file").setInputFiles({ name: "copy.out", mimeType: "text/plain", buffer: Buffer.from(sampleText) });
  await expect(page.getByLabel("Scored with")).toHaveValue(/^\d+$/);
  await page.getByRole("button", { name: "Upload and score" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Stored copy/ })).toContainText("read from the content");
  await expect(best.getByRole("row")).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("copy");
  await expect(rows.nth(1).getByRole("cell").nth(3)).toHaveText(shown);
  await page.reload();
  expect(new URL(page.url()).searchParams.get("gold")).toMatch(/^\d+$/);
  await expect(page.getByText(/Ranking the runs scored with demo-copy/)).toBeVisible();
  await expect(page.getByRole("table", { name: /^best/ }).getByRole("row")).toHaveCount(2);
  await page.getByRole("button", { name: "Details of copy" }).click();
  await expect(page.getByRole("region", { name: /copy/ })).toContainText("scored against demo-copy.gold");
  const again = page.waitForEvent("download");
  await page.getByRole("region", { name: /copy/ }).getByRole("link", { name: "Download report", exact: true }).click();
  expect(await readFile((await (await again).path())!, "utf8")).toBe(text);

  // Clean up so the spec can run again on the same server: the stored gold goes once its run is gone.
  page.on("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Delete the gold demo-copy" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "run is scored" })).toContainText("1 run is scored with demo-copy: copy.out (best)");
  await page.getByRole("button", { name: "Delete copy.out" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Deleted copy.out." })).toBeVisible();
  await page.getByRole("button", { name: "Delete the gold demo-copy" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Deleted the gold demo-copy." })).toBeVisible();
  await expect(page.getByText(/Ranking the runs scored with the gold derived from demo/)).toBeVisible();
  for (const name of ["weak", "demo-system", "demo-system"]) {
    await page.getByRole("button", { name: `Delete ${name}` }).first().click();
    await expect(page.getByRole("status").filter({ hasText: `Deleted ${name}.` })).toBeVisible();
  }
  await expect(page.getByText("No system run is scored with the project’s gold yet.")).toBeVisible();
  expect(id).toBeGreaterThan(0);
});

test("a cut-off run is stored only when the coordinator confirms it; a cut-off gold is refused, naming its line", async ({ page }, testInfo) => {
  await signIn(page, "coordinator");
  const id = await demoProjectId(page);
  await page.goto(`/projects/${id}/scoring`);
  const best = page.getByRole("table", { name: /^best/ });
  // The sample best file cut off in its 13th line, before the "::".
  const lines = (await readFile(sample("demo-system.best"), "utf8")).split("\n");
  const cut = `${lines.slice(0, 12).join("\n")}\n${lines[12].slice(0, lines[12].indexOf(" ::"))}`;
  const cutFile = { name: "cut.best", mimeType: "text/plain", buffer: Buffer.from(cut) };
  await page.getByLabel("System file").setInputFiles(cutFile);
  await page.getByRole("button", { name: "Upload and score" }).click();
  const ask = page.getByRole("alertdialog", { name: "Store cut.best anyway?" });
  await expect(ask).toBeVisible();
  await expect(ask).toBeFocused();
  await expect(ask).toContainText("1 line is not in the best format and would be skipped (the first: line 13); 12 answer lines read.");
  await expect(ask.getByRole("list", { name: "Errors" }).getByRole("listitem")).toHaveText([/^line 13 not a best line/]);
  // How it looks, wide and narrow.
  await ask.screenshot({ path: testInfo.outputPath("confirm-wide.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await ask.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("confirm-narrow.png") });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Cancel: nothing stored.
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Nothing was stored: cut.best was left out." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Details of cut" })).toHaveCount(0);

  // Asked again, and stored anyway: the row says what was skipped.
  await page.getByRole("button", { name: "Upload and score" }).click();
  await ask.getByRole("button", { name: "Store anyway" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Stored cut/ })).toContainText("Stored cut (best): 12 answer lines, 1 line not in the format (skipped).");
  await expect(best.getByRole("row", { name: /cut/ })).toContainText("1 line skipped");

  // A gold cut off in an entry: refused, naming the line; nothing stored, the project's gold still the one shown.
  const goldText = await (await page.request.get(`/api/projects/${id}/gold?file=gold`)).text();
  const goldLines = goldText.trimEnd().split("\n");
  const last = goldLines[goldLines.length - 1];
  const cutGold = `${goldLines.slice(0, -1).join("\n")}\n${last.slice(0, last.lastIndexOf(" "))}`;
  await page.getByLabel("Gold (for best and oot)").setInputFiles({ name: "cut.gold", mimeType: "text/plain", buffer: Buffer.from(cutGold) });
  await page.getByRole("button", { name: "Store and rank against it" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "cut.gold" })).toContainText(`cut.gold: the gold file has a malformed line, the first at line ${goldLines.length}: entry`);
  await expect(page.getByText(`Malformed line ${goldLines.length}.`)).toBeVisible();
  await expect(page.getByRole("radio", { name: /cut/ })).toHaveCount(0);
  await expect(page.getByText(/Ranking the runs scored with the gold derived from demo/)).toBeVisible();

  page.on("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Delete cut" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Deleted cut." })).toBeVisible();
});

test("the coordinator adds the WordNet baselines as runs of the gold shown", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await demoProjectId(page);
  await page.goto(`/projects/${id}/scoring`);
  // The panel names the gold the baselines are scored with (a new visit starts on the project's own).
  await expect(page.getByTestId("baselines-gold")).toHaveText(/^Scored with the gold derived from demo.*, the gold chosen above\.$/);
  await page.getByRole("button", { name: "Add the WordNet baselines as runs" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Added the WordNet baseline runs: best \(0 unanswered\), oot \(0 unanswered\)/ })).toBeVisible();
  for (const table of [/^best/, /^out-of-ten/]) await expect(page.getByRole("table", { name: table })).toContainText("WordNet baseline");
  // A second time: refused, nothing added.
  await page.getByRole("button", { name: "Add the WordNet baselines as runs" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "already stored" })).toContainText('A best run named "WordNet baseline" is already stored for this gold');
  page.on("dialog", (d) => d.accept());
  while ((await page.getByRole("button", { name: "Delete WordNet baseline" }).count()) > 0) {
    const n = await page.getByRole("button", { name: "Delete WordNet baseline" }).count();
    await page.getByRole("button", { name: "Delete WordNet baseline" }).first().click();
    await expect(page.getByRole("button", { name: "Delete WordNet baseline" })).toHaveCount(n - 1);
  }
  expect(id).toBeGreaterThan(0);
});

test("the coordinator scores SENSEVAL answers on the page", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await demoProjectId(page);
  await page.goto(`/projects/${id}/scoring`);
  const file = (name: string, text: string) => ({ name, mimeType: "text/plain", buffer: Buffer.from(text) });
  await page.getByLabel("Answers").setInputFiles(file("answers", "art.n 1 art-1.2\nart.n 2 art-2\n"));
  await page.getByLabel("Key", { exact: true }).setInputFiles(file("key", "art.n 1 art-1.1\nart.n 2 art-2\nart.n 3 art-1.2\n"));
  await page.getByLabel("Sense map (optional)").setInputFiles(file("sensemap", "art-1\nart-1.1 2 art-1\nart-1.2 2 art-1\nart-2\n"));
  await page.getByLabel("Granularity").selectOption("coarse");
  await page.getByRole("button", { name: "Score", exact: true }).click();
  const out = page.getByLabel("scorer2 output");
  await expect(out).toContainText('Coarse-grained score for "answers" using key "key":');
  await expect(out).toContainText("precision: 1.000 (2.00 correct of 2.00 attempted)");
  await expect(page.getByRole("table", { name: "SENSEVAL-1 grid" })).toContainText("overall");
});

test("an annotator is refused the page and the routes", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await demoProjectId(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await signIn(page, "annotator2");
  await page.goto(`/projects/${id}/scoring`);
  await expect(page).not.toHaveURL(/scoring/);
  await expect(page.getByRole("heading", { name: "Scoring" })).toHaveCount(0);
  const res = await page.request.get(`/api/projects/${id}/scoring/results`);
  expect(res.status()).toBe(403);
  const up = await page.request.post(`/api/projects/${id}/scoring/runs`, {
    headers: { Origin: new URL(page.url()).origin },
    multipart: { file: { name: "x.best", mimeType: "text/plain", buffer: Buffer.from("quiet.a d1 :: silent\n") } },
  });
  expect(up.status()).toBe(403);
});

test("cross-site POSTs are refused and signed-out requests get 401", async ({ page, request }) => {
  await signIn(page, "coordinator");
  const id = await demoProjectId(page);
  const res = await page.request.post(`/api/projects/${id}/scoring/runs`, {
    headers: { Origin: "https://evil.example" },
    multipart: { file: { name: "x.best", mimeType: "text/plain", buffer: Buffer.from("quiet.a d1 :: silent\n") } },
  });
  expect(res.status()).toBe(403);
  expect((await request.get(`/api/projects/${id}/scoring/results`)).status()).toBe(401);
});

/**
 * Answers imported as written (#40): a spelling with other spacing is kept and
 * reported on the Team tab's preview, and the lemma review lists it, with a verb
 * target's participle that WordNet also has as an adjective, as a proposal to
 * decide — nothing applied by itself. Works on a project of its own.
 */
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const demoXml = path.resolve(import.meta.dirname, "../samples/demo.xml");
const shots = process.env.SCREENSHOT_DIR;

test("a responses import keeps and reports odd spacing; the lemma review offers the tidied form and the verb of a participle", async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, "coordinator");
  await page.goto("/projects");
  await page.getByLabel("Project name").fill(`imported ${stamp}`);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  const id = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
  await page.getByLabel("Lexelt XML file").setInputFiles(demoXml);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(/40 instances in 9 lexelts/);

  await page.goto(`/projects/${id}/members`);
  const annotator = `imp-${stamp}`;
  await page.getByLabel("User name").fill(annotator);
  await page.getByRole("button", { name: "Create and add" }).click();
  await expect(page.getByRole("status")).toContainText(`Created annotator ${annotator}`);

  const body = `annotator\tlexelt\tinstance\tanswer\tmultiword\n${annotator}\tlaunch.v\td8\tbegin;begin ;excited\t\n`;
  await page.getByLabel("Responses TSV file").setInputFiles({ name: "old.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(body) });
  await page.getByRole("button", { name: "Preview import" }).click();
  const preview = page.getByRole("region", { name: "Import preview" });
  await expect(preview).toContainText("kept 1 answer as written that breaks the workspace's rules (spacing 1)");
  await expect(preview.getByText(/Reported: 1 note/)).toBeVisible();
  await expect(preview).toContainText('instance d8: "begin " differs from "begin" (line 2) only in spacing: both kept as written');
  if (shots) {
    await preview.screenshot({ path: `${shots}/import-spacing-preview.png` });
  }
  await preview.getByRole("button", { name: "Import 1 change" }).click();
  await expect(page.getByRole("status").filter({ hasText: "old.tsv: 1 response; added 1" })).toBeVisible();

  await page.goto(`/projects/${id}/gold`);
  // No lemma proposal applies by itself here, but the gold with proposals applied would tidy "begin ": the notice says so.
  const notice = page.getByRole("status").filter({ hasText: "other spacing" });
  await expect(notice).toContainText("1 spelling imported with other spacing than its form's (a space too many, or at an end) is not decided: the downloads write it as typed.");
  await expect(notice.getByRole("link", { name: "gold with proposals applied" })).toHaveAttribute("href", `/api/projects/${id}/gold?file=gold&proposals=1`);
  const tidied = await (await page.request.get(`/api/projects/${id}/gold?file=gold&proposals=1`)).text();
  const tidiedLine = tidied.split("\n").find((l) => l.startsWith("launch.v d8 :: "))!;
  expect(tidiedLine).toMatch(/ :: (.*;)?begin \d+;/);
  expect(tidiedLine).not.toContain("begin  ");
  if (shots) {
    await notice.screenshot({ path: `${shots}/spacing-notice-1440.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await notice.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/spacing-notice-390.png` });
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  const table = page.getByRole("table", { name: "Lemma review" });
  const begin = table.getByRole("row", { name: /^begin\b/ });
  await expect(begin).toContainText('also typed with other spacing: "begin " (apart in the gold until decided)');
  const excited = table.getByRole("row", { name: /^excited\b/ });
  await expect(excited).toContainText("excite");
  await expect(excited).toContainText("a choice: the verb excite, or excited as WordNet’s adjective (keep as typed); accept all leaves it open");
  if (shots) {
    await page.screenshot({ path: `${shots}/lemma-choice-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await excited.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/lemma-choice-390.png` });
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  // Accepting the choice writes the verb; the spelling with a space stays apart until its row is decided.
  await excited.getByRole("button", { name: "Accept excite for excited" }).click();
  await expect(excited).toContainText("accepted");
  const gold = await (await page.request.get(`/api/projects/${id}/gold?file=gold`)).text();
  const line = gold.split("\n").find((l) => l.startsWith("launch.v d8 :: "))!;
  expect(line.split(" :: ")[1].split(";").filter(Boolean).sort()).toEqual(["begin  1", "begin 1", "excite 1"]);
});

import { readFile } from "node:fs/promises";
import { type Page, expect, test } from "@playwright/test";
import { openDemo, signIn } from "./helpers";

// Per-response adjudication on the Gold tab (issue #15). Every change is undone
// before the test ends, so other specs see the demo as seeded.
test.describe.configure({ mode: "serial" });

const ORIGINAL = "quiet.a d1 :: silent 4;hushed 2;still 2;calm 1;peaceful 1;";
/** A substitute's Adjudicate (not a multiword phrase's). */
const SUBSTITUTE_SUMMARY = 'details summary:not([aria-label^="Adjudicate the multiword"])';

async function openInstances(page: Page, query: string): Promise<number> {
  const id = await openDemo(page);
  await page.goto(`/projects/${id}/gold?${query}`);
  return id;
}

async function download(page: Page, link: RegExp): Promise<string> {
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: link }).click();
  return readFile((await (await downloading).path())!, "utf8");
}

test("the coordinator strikes and corrects single substitutes, sees the gold line change, marks the instance reviewed, and undoes it all", async ({ page }) => {
  await signIn(page, "coordinator");
  const projectId = await openInstances(page, "view=instances&lexelt=quiet.a");
  const d1 = page.getByRole("article", { name: "quiet.a d1" });
  const goldLine = d1.locator("dd code").first();
  await expect(goldLine).toHaveText(ORIGINAL);

  // Strike annotator4's "calm", with a reason.
  await d1.getByLabel("Adjudicate calm (annotator4)").click();
  const calmForm = d1.getByRole("form", { name: "Adjudicate calm of annotator4" });
  await calmForm.getByLabel("Reason (optional)").fill("not quiet in this sense");
  await calmForm.getByRole("button", { name: "Strike calm (annotator4)" }).click();
  await expect(goldLine).toHaveText("quiet.a d1 :: silent 4;hushed 2;still 2;peaceful 1;");
  const struck = d1.getByRole("deletion").filter({ hasText: "calm" });
  await expect(struck).toBeVisible();
  await expect(d1).toContainText("by coordinator · just now · “not quiet in this sense”");

  // A correction that breaks the answer rules is refused beside its field; a good one is counted.
  await d1.getByLabel("Adjudicate peaceful (annotator3)").click();
  const peaceful = d1.getByRole("form", { name: "Adjudicate peaceful of annotator3" });
  await peaceful.getByLabel("Or correct it to").fill("quiet");
  await peaceful.getByRole("button", { name: "Correct peaceful (annotator3)" }).click();
  await expect(peaceful.getByRole("alert")).toContainText("target word");
  await expect(goldLine).toHaveText("quiet.a d1 :: silent 4;hushed 2;still 2;peaceful 1;");
  await peaceful.getByLabel("Or correct it to").fill("hushed");
  await peaceful.getByRole("button", { name: "Correct peaceful (annotator3)" }).click();
  await expect(goldLine).toHaveText("quiet.a d1 :: silent 4;hushed 3;still 2;");
  await expect(d1.getByRole("insertion")).toHaveText("hushed");
  await expect(d1).toContainText("mode: silent");

  // Mark it reviewed.
  await d1.getByRole("button", { name: "Mark d1 reviewed" }).click();
  await expect(d1.getByRole("button", { name: "Un-mark d1 reviewed" })).toBeVisible();
  await expect(d1.getByRole("list", { name: "Status" })).toContainText("reviewed");

  // Screenshots of the Gold tab with the decisions shown.
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/screens/gold-tab-${width}.png` });
    await d1.screenshot({ path: `test-results/screens/gold-adjudication-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The downloads: the gold has the adjudicated line; the responses carry the decisions; the originals are kept.
  const gold = await download(page, /Download gold/);
  expect(gold.split("\n")).toContain("quiet.a d1 :: silent 4;hushed 3;still 2;");
  const responses = (await download(page, /Responses with adjudication/)).split("\n");
  expect(responses[0]).toBe("annotator\tlexelt\tinstance\tanswer\tmultiword\tadjudicated\tadjudication");
  expect(responses.find((l) => l.startsWith("annotator4\tquiet.a\td1\t"))).toMatch(/^annotator4\tquiet\.a\td1\thushed;silent;calm\t\thushed;silent\tstruck "calm" by coordinator /);
  expect(responses.find((l) => l.startsWith("annotator3\tquiet.a\td1\t"))).toMatch(/^annotator3\tquiet\.a\td1\tsilent;peaceful\t\tsilent;hushed\tcorrected "peaceful" to "hushed" by coordinator /);

  // The review queue leaves reviewed instances out and puts the least agreement first.
  await page.goto(`/projects/${projectId}/gold?view=queue`);
  await expect(page.getByRole("heading", { name: "Review queue" })).toBeVisible();
  await expect(page.getByRole("article", { name: "quiet.a d1" })).toHaveCount(0);
  const figures = (await page.getByRole("list", { name: "Status" }).allInnerTexts())
    .map((t) => /agreement (\d\.\d\d)/.exec(t)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number);
  expect(figures.length).toBeGreaterThan(1);
  expect(figures).toEqual([...figures].sort((a, b) => a - b));
  await page.getByLabel("Reviewed", { exact: true }).selectOption("yes");
  await expect(page).toHaveURL(/reviewed=yes/);
  await expect(page.getByRole("article", { name: "quiet.a d1" })).toBeVisible();

  // The review log lists each decision with who made it.
  await page.goto(`/projects/${projectId}/gold?view=log`);
  const log = page.getByRole("table", { name: "Review log" });
  await expect(log.getByRole("row").nth(1)).toContainText("reviewed");
  await expect(log.getByRole("row").nth(2)).toContainText("corrected");
  await expect(log.getByRole("row").nth(2)).toContainText("annotator3: “peaceful” → “hushed”");
  await expect(log.getByRole("row").nth(3)).toContainText("struck");
  await expect(log.getByRole("row").nth(3)).toContainText("coordinator");

  // Undo everything: the gold line is as seeded again, and the undos are logged.
  await page.goto(`/projects/${projectId}/gold?view=instances&lexelt=quiet.a`);
  await d1.getByRole("button", { name: "Undo the strike of calm (annotator4)" }).click();
  await expect(goldLine).toHaveText("quiet.a d1 :: silent 4;hushed 3;still 2;calm 1;");
  await d1.getByRole("button", { name: "Undo the correction of peaceful (annotator3)" }).click();
  await expect(goldLine).toHaveText(ORIGINAL);
  await expect(d1.getByRole("deletion")).toHaveCount(0);
  await d1.getByRole("button", { name: "Un-mark d1 reviewed" }).click();
  await expect(d1.getByRole("button", { name: "Mark d1 reviewed" })).toBeVisible();
  const csv = (await download(page, /Review log \(CSV\)/)).trim().split("\r\n");
  expect(csv.slice(-5).map((r) => r.split(",").slice(1, 5).join(","))).toEqual([
    "coordinator,correct,d1,corrected",
    "coordinator,reviewed,d1,reviewed",
    "coordinator,undo,d1,undone (struck)",
    "coordinator,undo,d1,undone (corrected)",
    "coordinator,reviewed,d1,un-marked reviewed",
  ]);

  await page.goto(`/projects/${projectId}/gold?view=queue`);
  // A decision in the queue keeps the instance where it was (held in the URL), with its form open beside
  // a flag / note column that is not squeezed off the card.
  const first = page.getByRole("article").first();
  const firstName = await first.getByRole("heading", { level: 3 }).innerText();
  const adjudicate = first.locator(SUBSTITUTE_SUMMARY, { hasText: "Adjudicate" }).first();
  const what = (await adjudicate.getAttribute("aria-label"))!.replace(/^Adjudicate /, "");
  await adjudicate.click();
  const table = first.getByRole("table");
  const [tableBox, noteBox] = [await first.locator("div:has(> table)").boundingBox(), await table.getByRole("columnheader", { name: "Flag / note" }).boundingBox()];
  expect(noteBox!.x + noteBox!.width).toBeLessThanOrEqual(tableBox!.x + tableBox!.width + 1);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await first.screenshot({ path: `test-results/screens/gold-queue-adjudicate-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await first.getByRole("button", { name: `Strike ${what}` }).click();
  await expect(first.getByRole("button", { name: `Undo the strike of ${what}` })).toBeVisible();
  await expect(page).toHaveURL(/hold=/);
  await expect(page.getByRole("article").first().getByRole("heading", { level: 3 })).toHaveText(firstName);
  await first.getByRole("button", { name: `Undo the strike of ${what}` }).click();
  await expect(first.getByRole("deletion")).toHaveCount(0);
  await expect(page.getByRole("article").first().getByRole("heading", { level: 3 })).toHaveText(firstName);

  // Further down the queue, a decision leaves the card where it stood on the screen: the refresh for
  // the new `hold` once scrolled the window to the top, and the coordinator had to find their place again.
  await page.goto(`/projects/${projectId}/gold?view=queue`);
  const lower = page.getByRole("article").nth(4);
  const lowerName = await lower.getByRole("heading", { level: 3 }).innerText();
  const lowerAdjudicate = lower.locator(SUBSTITUTE_SUMMARY, { hasText: "Adjudicate" }).first();
  const lowerWhat = (await lowerAdjudicate.getAttribute("aria-label"))!.replace(/^Adjudicate /, "");
  await lowerAdjudicate.scrollIntoViewIfNeeded();
  await lowerAdjudicate.click();
  const strike = lower.getByRole("button", { name: `Strike ${lowerWhat}` });
  await strike.evaluate((el) => el.scrollIntoView({ block: "center" }));
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const before = (await lower.boundingBox())!.y;
  await strike.click();
  const undo = lower.getByRole("button", { name: `Undo the strike of ${lowerWhat}` });
  await expect(undo).toBeVisible();
  await expect(page.getByRole("article").nth(4).getByRole("heading", { level: 3 })).toHaveText(lowerName);
  await expect.poll(async () => Math.abs((await lower.boundingBox())!.y - before)).toBeLessThan(2);
  await expect(undo).toBeInViewport();
  await undo.click();
  await expect(lower.getByRole("deletion")).toHaveCount(0);
  await expect(page.getByRole("article").nth(4).getByRole("heading", { level: 3 })).toHaveText(lowerName);
  await expect(lower.getByRole("heading", { level: 3 })).toBeInViewport();
});

test("the coordinator decides multiword phrases from the keyboard — corrected, used for all, not a multiword — and the mwgold follows; undone again", async ({ page }) => {
  await signIn(page, "coordinator");
  const projectId = await openInstances(page, "view=instances&lexelt=run.n");
  const d38 = page.getByRole("article", { name: "run.n d38" });
  const mwLine = d38.locator("dt:text-is('mwgold') + dd");
  const MW = "run.n d38 :: in the long run 3;long run 1;";
  await expect(mwLine).toHaveText(MW);
  await expect(d38.getByRole("list", { name: "Status" })).toContainText("multiword: in the long run");

  // annotator5's "long run": opened, corrected to the longer phrase and sent, all from the keyboard.
  const summary = d38.getByLabel("Adjudicate the multiword long run (annotator5)");
  await summary.focus();
  await page.keyboard.press("Enter");
  const form5 = d38.getByRole("form", { name: "Adjudicate the multiword of annotator5" });
  const phrase5 = form5.getByLabel("The phrase");
  await expect(phrase5).toHaveValue("long run");
  await form5.getByLabel("Reason (optional)").focus();
  await page.keyboard.type("the idiom");
  await page.keyboard.press("Tab");
  await expect(phrase5).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("in the long run");
  await page.keyboard.press("Enter");
  await expect(mwLine).toHaveText("run.n d38 :: in the long run 4;");
  await expect(d38.getByRole("deletion")).toHaveText("long run");
  await expect(d38.getByRole("insertion")).toHaveText("in the long run");
  await expect(d38).toContainText("by coordinator · just now · “the idiom”");
  // The answer itself is kept as typed: undo (from the keyboard) brings the line back.
  await d38.getByRole("button", { name: "Undo the multiword decision on long run (annotator5)" }).focus();
  await page.keyboard.press("Enter");
  await expect(mwLine).toHaveText(MW);

  // A phrase without the target word is refused beside its field, nothing decided.
  await d38.getByLabel("Adjudicate the multiword in the long run (annotator4)").click();
  const form4 = d38.getByRole("form", { name: "Adjudicate the multiword of annotator4" });
  await form4.getByLabel("The phrase").fill("in the end");
  await form4.getByRole("button", { name: "Correct the multiword of annotator4" }).click();
  await expect(form4.getByRole("alert")).toContainText("must contain the target word");
  await expect(mwLine).toHaveText(MW);

  // annotator2's phrase used for all: annotator5's is decided; then annotator3's is not a multiword.
  await d38.getByLabel("Adjudicate the multiword in the long run (annotator2)").click();
  await d38.getByRole("form", { name: "Adjudicate the multiword of annotator2" }).getByRole("button", { name: "Use this phrase for every annotator's multiword on d38" }).click();
  await expect(mwLine).toHaveText("run.n d38 :: in the long run 4;");
  await d38.getByLabel("Adjudicate the multiword in the long run (annotator3)").click();
  await d38.getByRole("form", { name: "Adjudicate the multiword of annotator3" }).getByRole("button", { name: "annotator3: not a multiword" }).click();
  await expect(mwLine).toHaveText("run.n d38 :: in the long run 3;");
  await expect(d38.getByText("not a multiword", { exact: true })).toBeVisible();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await d38.screenshot({ path: `test-results/screens/gold-multiword-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The downloads: the mwgold from the decisions, the responses as typed with the decisions beside them.
  const mwgold = await download(page, /Download mwgold/);
  expect(mwgold.split("\n")).toContain("run.n d38 :: in the long run 3;");
  const responses = (await download(page, /Responses with adjudication/)).split("\n");
  expect(responses.find((l) => l.startsWith("annotator5\trun.n\td38\t"))).toMatch(/^annotator5\trun\.n\td38\tlong term\tlong run\tlong term\tmultiword "long run" corrected to "in the long run" by coordinator /);
  expect(responses.find((l) => l.startsWith("annotator3\trun.n\td38\t"))).toMatch(/^annotator3\trun\.n\td38\tNIL\tin the long run\tNIL\tmultiword "in the long run" struck: not a multiword by coordinator /);

  // The review log says what was decided on the phrase.
  await page.goto(`/projects/${projectId}/gold?view=log`);
  const log = page.getByRole("table", { name: "Review log" });
  await expect(log.getByRole("row").nth(1)).toContainText("not a multiword");
  await expect(log.getByRole("row").nth(1)).toContainText("annotator3: multiword “in the long run”");
  await expect(log.getByRole("row").nth(2)).toContainText("annotator5: multiword “long run” → “in the long run”");

  // Undo both: the mwgold as seeded.
  await page.goto(`/projects/${projectId}/gold?view=instances&lexelt=run.n`);
  await d38.getByRole("button", { name: "Undo the multiword decision on long run (annotator5)" }).click();
  await expect(mwLine).toHaveText("run.n d38 :: in the long run 2;long run 1;");
  await d38.getByRole("button", { name: "Undo the multiword decision on in the long run (annotator3)" }).click();
  await expect(mwLine).toHaveText(MW);
  await expect(d38.getByRole("deletion")).toHaveCount(0);
});

test("an annotator cannot adjudicate: the Gold page sends them away and the actions refuse them", async ({ page }) => {
  await signIn(page, "coordinator");
  const id = await openInstances(page, "view=queue");
  await page.context().clearCookies();
  await signIn(page, "annotator1");
  await page.goto(`/projects/${id}/gold?view=queue`);
  await expect(page).toHaveURL(/\/annotate/);
  await expect(page.getByRole("button", { name: /Strike/ })).toHaveCount(0);
  // The responses export (which carries the decisions) is the coordinator's only.
  const res = await page.request.get(`/api/projects/${id}/responses`);
  expect(res.status()).toBe(403);
  expect(await page.request.get(`/api/projects/${id}/gold?file=logtsv`).then((r) => r.status())).toBe(403);
});

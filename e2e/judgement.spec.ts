import { type Browser, type Page, expect, test } from "@playwright/test";
import { type JudgementLabel, table8, verdict } from "../lib/lexsub/judgement";
import { signIn } from "./helpers";

test.describe.configure({ mode: "serial" });

const JUDGES = ["annotator1", "annotator2", "annotator3"];
const KEYS: Record<string, JudgementLabel> = { g: "good", r: "reasonable", b: "bad" };

/** The label a judge gives a candidate: varied by judge and word, so verdicts differ. */
function choose(judge: number, text: string): string {
  let h = judge * 7;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return "grb"[h % 3];
}

/** What the test itself gave: per sentence and candidate, the labels. */
const given = new Map<string, JudgementLabel[]>();
let projectId = 0;

async function judgeAll(browser: Browser, judge: number) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, JUDGES[judge]);
  await page.goto("/annotate");
  await page.getByRole("region", { name: "Judgement rounds" }).getByRole("link", { name: /Post hoc e2e/ }).click();
  await expect(page).toHaveURL(/\/judge\/\d+$/);
  for (let guard = 0; guard < 50; guard++) {
    if (await page.getByRole("heading", { name: "Judging done" }).isVisible()) break;
    const sentence = (await page.getByTestId("sentence").textContent())!;
    const heading = (await page.getByRole("heading", { level: 1 }).textContent())!;
    const rows = page.locator("li[data-candidate]");
    const n = await rows.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const text = (await rows.nth(i).getAttribute("data-candidate"))!;
      const key = choose(judge, text);
      await page.keyboard.press(key);
      await expect(rows.nth(i).getByRole("button", { name: KEYS[key], exact: true })).toHaveAttribute("aria-pressed", "true");
      const k = `${sentence}\u0000${text}`;
      given.set(k, [...(given.get(k) ?? []), KEYS[key]]);
    }
    if (judge === 0 && guard === 0) {
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `test-results/screens/judge-${width}.png`, fullPage: true });
      }
    }
    // No source is ever shown to a judge.
    await expect(page.locator("body")).not.toContainText("annotators");
    // Enter at once, while the last label may still be saving: it is taken, never dropped.
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(heading);
  }
  await expect(page.getByRole("heading", { name: "Judging done" })).toBeVisible();
  await context.close();
}

test("a coordinator creates a §5.1 round with three judges", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto("/projects");
  await page.getByRole("link", { name: /^demo/ }).first().click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  projectId = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Judgement" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Judgement");
  const form = page.getByRole("form", { name: "New judgement round" });
  await form.getByLabel("Name", { exact: true }).fill("Post hoc e2e");
  await form.getByLabel("Sample size").fill("3");
  await form.getByLabel("Seed", { exact: true }).fill("7");
  await form.getByLabel(/§5.1 preset/).check();
  await form.getByLabel(/Judges may judge items they annotated/).check();
  for (const j of JUDGES) await form.getByLabel(j, { exact: true }).check();
  await form.getByRole("button", { name: "Create round" }).click();
  await expect(form.getByRole("status")).toContainText(/Created "Post hoc e2e": [1-3] items/);
});

test("three judges label every candidate with the keyboard", async ({ browser }) => {
  for (let j = 0; j < JUDGES.length; j++) await judgeAll(browser, j);
  expect(given.size).toBeGreaterThan(0);
  for (const labels of given.values()) expect(labels).toHaveLength(3);
});

test("the Table 8 figures equal a hand computation from those labels", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto(`/projects/${projectId}/judgement`);
  const round = page.getByRole("region", { name: "Round Post hoc e2e" });
  const want = table8([...given.values()].map((labels) => ({ sources: ["annotators"], verdict: verdict(labels) })));
  expect(want).toHaveLength(1);
  const row = round.locator('tr[data-source="annotators"]');
  await expect(row.locator('[data-cell="total"]')).toHaveText(String(want[0].total));
  for (const v of ["good", "reasonable", "bad"] as const) {
    await expect(row.locator(`[data-cell="${v}"]`)).toContainText(`${want[0][v].percent.toFixed(1)}% (${want[0][v].count})`);
  }
  await expect(round.getByTestId("judges")).toContainText(`annotator1 (${given.size})`);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/judgement-tab-${width}.png`, fullPage: true });
  }
});

test("the coordinator closes the round (a judge then finds it closed), reopens it and changes its judges", async ({ page, browser }) => {
  await signIn(page, "coordinator");
  await page.goto(`/projects/${projectId}/judgement`);
  const round = page.getByRole("region", { name: "Round Post hoc e2e" });
  await round.getByRole("button", { name: "Close round" }).click();
  await expect(round.getByRole("status")).toContainText('"Post hoc e2e" is closed');
  await expect(round.getByRole("heading", { level: 2 })).toContainText("closed");
  const roundId = Number(/judgement\/(\d+)\/swords/.exec((await round.getByRole("link", { name: "SWORDS JSON" }).getAttribute("href"))!)![1]);

  const judge = await browser.newContext();
  const jp = await judge.newPage();
  await signIn(jp, JUDGES[0]);
  await jp.goto(`/judge/${roundId}`);
  await expect(jp.getByRole("heading", { level: 1 })).toHaveText("Round closed");
  await jp.goto("/annotate");
  await expect(jp.getByRole("region", { name: "Judgement rounds" }).getByRole("link", { name: /Post hoc e2e/ })).toHaveCount(0);

  await round.getByRole("button", { name: "Reopen round" }).click();
  await expect(round.getByRole("status")).toContainText('"Post hoc e2e" is open again');
  await jp.goto(`/judge/${roundId}`);
  await expect(jp.getByRole("heading", { level: 1 })).toHaveText("Judging done");

  // Judges: take the first one off; the labels already given stay counted.
  const judges = round.getByRole("form", { name: "Judges of Post hoc e2e" });
  await judges.getByLabel(JUDGES[0], { exact: true }).uncheck();
  await judges.getByRole("button", { name: "Save judges" }).click();
  await expect(round.getByRole("status").filter({ hasText: "Judges of" })).toContainText(`Judges of "Post hoc e2e": ${JUDGES.slice(1).join(", ")}.`);
  await expect(round.getByTestId("judges")).not.toContainText(`${JUDGES[0]} (`);
  // No longer a judge of it: the round is not theirs to see.
  expect((await jp.goto(`/judge/${roundId}`))!.status()).toBe(404);
  await judge.close();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/judgement-controls-${width}.png`, fullPage: true });
  }
});

import { expect, test } from "@playwright/test";
import { openDemoTab, signIn } from "./helpers";

/**
 * The judge role (issue #31): a judge who is not an annotator is made on the Team tab, goes through
 * a judgement round with the keyboard only (every Enter taken, even while a label is saving), is
 * refused the project's workspace with a plain message, and the annotators' Progress ignores them.
 */
test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const JUDGE = `judge-${stamp}`;
const ROUND = `Judge role ${stamp}`;
let password = "";
let projectId = 0;
/** Progress before the judge existed: "Instances complete" and the annotator count. */
let complete = "";
let annotatorCount = "";

test("the coordinator adds a judge on the Team tab and gives them a round", async ({ page }) => {
  await signIn(page, "coordinator");
  projectId = await openDemoTab(page, "Progress");
  complete = (await page.getByRole("region", { name: "Instances complete", exact: true }).textContent())!;
  annotatorCount = (await page.getByRole("region", { name: "Annotators", exact: true }).textContent())!;

  await page.goto(`/projects/${projectId}/members`);
  const create = page.getByRole("form", { name: "Create an account" });
  await create.getByLabel("User name").fill(JUDGE);
  await create.getByLabel("Role in this project").selectOption("judge");
  await create.getByRole("button", { name: "Create and add" }).click();
  await expect(create.getByRole("status")).toContainText(`Created judge ${JUDGE}`);
  password = (await create.getByRole("status").locator("code").textContent())!.trim();
  const row = page.getByRole("table", { name: "Members" }).getByRole("row", { name: new RegExp(`^${JUDGE}\\b`) });
  // A judge is given no lexelts and is not offered in the assignment editor.
  await expect(row).toContainText("Nothing: judges the rounds they are given");
  await expect(row.getByRole("combobox", { name: `Role of ${JUDGE}` })).toHaveValue("judge");
  await expect(page.getByRole("list", { name: "By hand" }).getByRole("link", { name: JUDGE })).toHaveCount(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "test-results/screens/team-judge-1440.png", fullPage: true });

  await page.goto(`/projects/${projectId}/judgement`);
  const form = page.getByRole("form", { name: "New judgement round" });
  await form.getByLabel("Name", { exact: true }).fill(ROUND);
  await form.getByLabel("Sample size").fill("3");
  await form.getByLabel("Seed", { exact: true }).fill("11");
  await form.getByLabel(/§5.1 preset/).check();
  await form.getByLabel("Judges per candidate").fill("1");
  await form.getByLabel("Escalation cap (more judges when any says good)").fill("1");
  await form.getByRole("checkbox", { name: `${JUDGE} (judge)`, exact: true }).check();
  await form.getByRole("button", { name: "Create round" }).click();
  await expect(form.getByRole("status")).toContainText(new RegExp(`Created "${ROUND}": [1-3] items`));
});

test("the judge sees only their round, is refused the workspace, and judges it from the keyboard", async ({ page }) => {
  await signIn(page, JUDGE, password);
  await page.goto("/annotate");
  // The header does not call a judge "annotator" (their account's kind): it names them only.
  await expect(page.getByRole("banner")).toContainText(JUDGE);
  await expect(page.getByRole("banner")).not.toContainText("annotator");
  // Not an annotator anywhere: no project to annotate, only the round.
  await expect(page.getByRole("list", { name: "Your projects" })).toHaveCount(0);
  await expect(page.getByText("You are not in any project yet")).toHaveCount(0);
  const link = page.getByRole("region", { name: "Judgement rounds" }).getByRole("link", { name: new RegExp(ROUND) });
  await expect(link).toHaveCount(1);

  await page.goto(`/annotate/${projectId}`);
  await expect(page.getByText(/You are a judge in “demo[^”]*”: you label its judgement rounds/)).toBeVisible();
  await page.goto("/annotate");

  // Keyboard only from here: into the round, a label per candidate, Enter for the next sentence.
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/judge\/\d+$/);
  let sentences = 0;
  for (let guard = 0; guard < 20; guard++) {
    if (await page.getByRole("heading", { name: "Judging done" }).isVisible()) break;
    const heading = (await page.getByRole("heading", { level: 1 }).textContent())!;
    const rows = page.locator("li[data-candidate]");
    const n = await rows.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const key = "grb"[i % 3];
      await page.keyboard.press(key);
      await expect(rows.nth(i).getByRole("button", { name: { g: "good", r: "reasonable", b: "bad" }[key], exact: true })).toHaveAttribute("aria-pressed", "true");
    }
    // Enter at once, while the last label may still be saving: it is taken, never dropped.
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(heading);
    sentences++;
  }
  await expect(page.getByRole("heading", { name: "Judging done" })).toBeVisible();
  expect(sentences).toBeGreaterThan(0);
});

test("the annotators' Progress ignores the judge; the round counts their labels", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto(`/projects/${projectId}/progress`);
  await expect(page.getByRole("region", { name: "Instances complete", exact: true })).toHaveText(complete);
  await expect(page.getByRole("region", { name: "Annotators", exact: true })).toHaveText(annotatorCount);
  await expect(page.getByRole("link", { name: JUDGE })).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(JUDGE);

  await page.goto(`/projects/${projectId}/judgement`);
  await expect(page.getByRole("region", { name: `Round ${ROUND}` }).getByTestId("judges")).toContainText(new RegExp(`${JUDGE} \\([1-9]\\d*\\)`));
});

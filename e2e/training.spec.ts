import { type Page, expect, test } from "@playwright/test";
import { openDemoTab, signIn } from "./helpers";

// Serial: the coordinator sets up, a new annotator trains and answers, the coordinator reads the report.
// Everything the coordinator set up is undone at the end, so the demo reads as seeded for later specs.
test.describe.configure({ mode: "serial" });

const TRAINEE = "trainee";
const PASSWORD = "trainee-pass-1";
let projectId = 0;

async function openTraining(page: Page) {
  projectId = await openDemoTab(page, "Training", "Training and checks");
}

async function shoot(page: Page, name: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("the coordinator sets up two training items and an attention check", async ({ page }) => {
  await signIn(page, "coordinator");
  await openTraining(page);
  // The default guidelines are shown to the coordinator, rendered (a list, not bullets in a paragraph).
  await expect(page.getByRole("region", { name: "Guidelines" }).getByRole("listitem").first()).toContainText("up to three substitutes");

  // Training item one by one.
  await page.getByLabel("Instance id", { exact: true }).fill("d2");
  await page.getByLabel("Accepted substitutes (separate with ;)").fill("shy; reserved");
  await page.getByRole("button", { name: "Save item" }).click();
  await expect(page.getByRole("status")).toHaveText("d2 is now a training item.");

  // A bad upload is refused by line, nothing written; a good one is taken.
  const upload = page.getByRole("region", { name: "Add a known-answer item" });
  await upload.getByLabel(/^File:/).setInputFiles({ name: "bad.tsv", mimeType: "text/plain", buffer: Buffer.from("d3\tcalm\nnope\tx\n") });
  await upload.getByRole("button", { name: "Upload" }).click();
  await expect(page.locator("p[role=alert]")).toContainText('bad.tsv line 2: no instance "nope"');
  await expect(page.getByRole("table").first()).not.toContainText("d3");
  await upload.getByLabel(/^File:/).setInputFiles({ name: "t.tsv", mimeType: "text/plain", buffer: Buffer.from("d3\tcalm;slow\n") });
  await upload.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("status")).toHaveText("Imported 1 item.");

  // The attention check takes d1's current gold.
  await upload.getByLabel("Instance ids (spaces or commas between)").fill("d1");
  await page.locator("#role-gold").selectOption("check");
  await upload.getByRole("button", { name: "Mark with their gold" }).click();
  await expect(page.getByRole("status")).toHaveText("Marked 1 item with their current gold.");
  const items = page.getByRole("region", { name: /Known-answer items/ }).getByRole("table");
  // The coordinator is told that training items are left out of the annotators' queue (the default).
  await expect(page.getByTestId("training-in-queue")).toContainText("Training items are left out of the annotators’ queue");
  await expect(items.getByRole("row", { name: /^d1 / })).toContainText("Attention check");
  await expect(items.getByRole("row", { name: /^d1 / })).toContainText("silent");

  await page.getByLabel("Annotators must pass the training before real instances").check();
  await page.getByLabel("Pass mark (% of training items matched)").fill("60");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status")).toHaveText("Settings saved.");
  await expect(page.getByLabel("Annotators must pass the training before real instances")).toBeChecked();

  // A note for quiet.a, in Markdown (raw HTML is not rendered).
  await page.getByLabel(/^Note for quiet\.a/).fill("**Think of sound.** <img src=x onerror=alert(1)>");
  await page.getByRole("button", { name: "Save note" }).click();
  await expect(page.getByRole("status")).toHaveText("Note saved.");
  await expect(page.getByRole("region", { name: "Notes and examples per lexelt" }).locator("strong")).toHaveText("Think of sound.");
  await expect(page.locator("img[src=x]")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Notes and examples per lexelt" }).locator("p", { hasText: "<img src=x onerror=alert(1)>" })).toBeVisible();
  await shoot(page, "training-settings");

  // A new annotator for the walk.
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Team" }).click();
  await page.getByLabel("User name").fill(TRAINEE);
  await page.getByLabel("Initial password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create and add" }).click();
  await expect(page.getByText(`Created annotator ${TRAINEE}`)).toBeVisible();
});

async function answer(page: Page, text: string) {
  await page.getByLabel("Substitute 1").fill(text);
  await page.getByRole("button", { name: "Check my answer" }).click();
}

test("an annotator fails the training, retries, passes and answers real items", async ({ page }) => {
  await signIn(page, TRAINEE, PASSWORD);
  await page.goto(`/annotate/${projectId}`);
  await expect(page).toHaveURL(new RegExp(`/annotate/${projectId}/training$`));
  // Real instances are refused until the training is passed.
  await page.goto(`/annotate/${projectId}/1`);
  await expect(page).toHaveURL(new RegExp(`/annotate/${projectId}/training$`));

  // Attempt 1: one item right, one wrong = 50 % < 60 %.
  await expect(page.getByRole("heading", { name: "Target: quiet" })).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Note for this target" }).locator("strong")).toHaveText("Think of sound.");
  // The workspace's fields and keys: three substitutes side by side, NAME by Alt+N, Enter checks.
  const counter = page.getByTestId("training-counter");
  await expect(counter).toContainText("Item 1 of 2");
  const [b1, b2] = [await page.getByLabel("Substitute 1").boundingBox(), await page.getByLabel("Substitute 2").boundingBox()];
  expect(b2!.x).toBeGreaterThan(b1!.x + b1!.width - 1);
  expect(Math.abs(b2!.y - b1!.y)).toBeLessThan(2);
  await shoot(page, "training-item");
  await expect(page.getByLabel("Substitute 1")).toBeFocused();
  await page.keyboard.press("Alt+KeyN");
  await expect(page.getByRole("button", { name: /^NAME/ })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("Enter");
  const fb = page.getByTestId("training-feedback");
  await expect(fb).toContainText("No match");
  await expect(fb).toContainText("Your answer: NAME");
  await expect(fb).toContainText("Known answers: shy, reserved");
  // The counter counts the item answered as soon as its feedback shows.
  await expect(counter).toContainText("1 of 2 answered");
  await shoot(page, "training-feedback");
  await page.keyboard.press("Enter");
  await expect(counter).toContainText("Item 2 of 2");
  // A multiword phrase (Alt+M) is shown back, not checked.
  await page.getByLabel("Substitute 1").fill("slow");
  await page.keyboard.press("Alt+KeyM");
  await expect(page.getByLabel("Multiword phrase")).toBeFocused();
  await page.keyboard.press("End");
  await page.keyboard.type(" down");
  await page.keyboard.press("Enter");
  await expect(fb).toContainText("Matched");
  await expect(fb.locator("strong", { hasText: "slow ✓" })).toBeVisible();
  await expect(fb).toContainText("not checked");
  await expect(counter).toContainText("2 of 2 answered");
  await page.getByRole("button", { name: "See your score" }).click();
  const result = page.getByTestId("training-result");
  await expect(result.getByRole("heading")).toHaveText("Your score: 50 % — not passed yet");
  await shoot(page, "training-failed");
  await page.goto(`/annotate/${projectId}`);
  await expect(page).toHaveURL(/\/training$/);

  // Attempt 2, same items: both right = 100 %.
  await page.getByRole("button", { name: "Try the same items again" }).click();
  await expect(page.getByText(/Attempt 2/)).toBeVisible();
  await answer(page, "Shy");
  await expect(fb).toContainText("Matched");
  await page.getByRole("button", { name: "Next training item" }).click();
  await answer(page, "calmer");
  await page.getByRole("button", { name: "See your score" }).click();
  await expect(result.getByRole("heading")).toHaveText("Your score: 100 % — passed");
  await page.getByRole("link", { name: "Start annotating" }).click();

  // Real instances now: the attention check d1 looks like any item (with the lexelt's note beside it).
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Target: quiet");
  await expect(page.getByText(/attention|training item|known answer/i)).toHaveCount(0);
  await expect(page.getByTestId("lexelt-note")).toContainText("Think of sound.");
  await page.getByLabel("Substitute 1").fill("silent");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText(/Saved d1\./);
  // The training items d2 and d3 are left out of the queue: the next real instance is neither, and a link to one says why.
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByLabel("Substitute 1").fill("hushed");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText(/^Saved (?!d2\.|d3\.)\S+\./);
});

test("the coordinator sees the check report, then undoes the set-up", async ({ page }) => {
  await signIn(page, "coordinator");
  await openTraining(page);
  const row = page.getByRole("region", { name: "Per-annotator report" }).getByRole("row", { name: new RegExp(`^${TRAINEE} `) });
  await expect(row.getByRole("cell")).toHaveText([TRAINEE, "1", "1", "100 %", "2", "100 %", "passed"]);
  await shoot(page, "training-report");

  // The speed check: the trainee answered two items in a few seconds, under the 4 s default.
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Progress" }).click();
  const trainee = page.getByRole("row", { name: new RegExp(`^${TRAINEE}\\b`) });
  await expect(trainee.getByRole("status")).toContainText(/Too fast: median [\d.]+\s?s under 4/);
  await expect(page.getByText("2 training items are left out of the queue and of these counts")).toBeVisible();
  await shoot(page, "progress-speed-flag");
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Training" }).click();

  await page.getByLabel("Annotators must pass the training before real instances").uncheck();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status")).toHaveText("Settings saved.");
  for (const id of ["d1", "d2", "d3"]) {
    await page.getByRole("button", { name: `Remove ${id}` }).click();
    await expect(page.getByRole("status")).toHaveText(`${id} is an ordinary instance again.`);
  }
  await page.getByLabel(/^Note for quiet\.a/).fill("");
  await page.getByRole("button", { name: "Save note" }).click();
  await expect(page.getByRole("status")).toHaveText("Note saved.");
});

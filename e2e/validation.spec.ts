import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

// annotator4 only: no other spec works in annotator4's workspace. The demo seed
// holds annotator4's answer to d1 (hushed;silent;calm); this spec saves nothing,
// so it stays so, and the spec clears the draft it leaves behind.

const sub = (page: Page, n: number) => page.getByLabel(`Substitute ${n}`);
const SEED_LINE = "annotator4\tquiet.a\td1\thushed;silent;calm\t\n";

async function openD1(page: Page): Promise<number> {
  await page.goto("/annotate");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "demo" }) });
  await card.getByRole("link", { name: /(Start|Continue|Review) demo/ }).click();
  await expect(page).toHaveURL(/\/annotate\/\d+(\/\d+)?$/);
  const review = page.getByRole("link", { name: "Review from the first instance" });
  if (await review.isVisible()) await review.click();
  await expect(page).toHaveURL(/\/annotate\/\d+\/\d+$/);
  if (!(await page.getByRole("heading", { level: 1 }).textContent())?.includes("instance d1 ")) {
    await page.getByRole("complementary").getByRole("link", { name: "quiet", exact: true }).click();
  }
  await expect(page.getByRole("heading", { level: 1 })).toContainText("instance d1 ");
  return Number(/\/annotate\/(\d+)\//.exec(page.url())![1]);
}

test("a comma list and markup are refused beside their fields before anything is sent, and nothing is saved", async ({ page, browser }) => {
  await signIn(page, "annotator4");
  const projectId = await openD1(page);
  const url = page.url();
  await expect(page.getByText("Your saved answer: hushed, silent, calm")).toBeVisible();

  // Count the saves the page sends: a refused field is caught in the browser.
  let saves = 0;
  page.on("request", (r) => {
    // The save is a JSON POST to the save route; count server actions too, should one ever save again.
    if (r.method() === "POST" && (/\/api\/projects\/\d+\/responses\/\d+$/.test(new URL(r.url()).pathname) || r.headers()["next-action"])) saves++;
  });

  await sub(page, 1).fill("secluded, peaceful, tranquil, calm");
  await sub(page, 2).fill("<b>hushed</b>");
  await sub(page, 3).fill("x");
  await page.getByLabel("Part of a multiword").check();
  await page.getByLabel("Multiword phrase").fill("hush money");
  await page.getByRole("button", { name: "Save & next" }).click();

  // Each message beside its field, tied to it for screen readers; the first field focused.
  await expect(page.locator("#sub1-error")).toHaveText("One substitute per field — put the others in the next fields.");
  await expect(page.locator("#sub2-error")).toHaveText("No markup: the gold files cannot hold “<” or “>”.");
  await expect(page.locator("#sub3-error")).toHaveText("A substitute has at least two letters.");
  await expect(page.locator("#phrase-error")).toHaveText("The phrase must contain the target word: “quiet”.");
  for (const [n, id] of [[1, "sub1-error"], [2, "sub2-error"], [3, "sub3-error"]] as const) {
    await expect(sub(page, n)).toHaveAttribute("aria-invalid", "true");
    await expect(sub(page, n)).toHaveAttribute("aria-describedby", id);
  }
  await expect(sub(page, 1)).toBeFocused();
  await expect(page.getByRole("status")).toHaveText("Not saved: see the marked fields.");
  await expect(page).toHaveURL(url);
  // What was typed stays in the fields.
  await expect(sub(page, 1)).toHaveValue("secluded, peaceful, tranquil, calm");
  await expect(sub(page, 2)).toHaveValue("<b>hushed</b>");

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    await page.screenshot({ path: test.info().outputPath(`validation-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Markup in the phrase too; a field's message goes once it is edited.
  await page.getByLabel("Multiword phrase").fill("<i>quiet</i> corner");
  await expect(page.locator("#phrase-error")).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(page.locator("#phrase-error")).toHaveText("No markup: the gold files cannot hold “<” or “>”.");
  await sub(page, 1).fill("secluded");
  await expect(page.locator("#sub1-error")).toHaveCount(0);
  await expect(page.locator("#sub2-error")).toBeVisible();
  expect(saves).toBe(0);

  // After a reload the draft is still there, unsaved; the stored answer is the seed's.
  await page.reload();
  await expect(page.getByText("Restored unsaved draft.")).toBeVisible();
  await expect(sub(page, 2)).toHaveValue("<b>hushed</b>");
  const coordinator = await browser.newContext();
  const cp = await coordinator.newPage();
  await signIn(cp, "coordinator");
  const exported = async () => (await cp.request.get(`/api/projects/${projectId}/responses`)).text();
  const before = await exported();
  expect(before).toContain(SEED_LINE);
  expect(before).not.toContain("tranquil, calm");

  // The Team tab's upload keeps answers people already gave as written, counted by the rule each breaks (previewed here, then
  // discarded); with the Strict box it applies the workspace's rules: each line named with its field and rule, nothing imported.
  await cp.goto(`/projects/${projectId}/members`);
  await cp.getByLabel("Responses TSV file").setInputFiles({
    name: "r.tsv",
    mimeType: "text/tab-separated-values",
    buffer: Buffer.from("annotator\tlexelt\tinstance\tanswer\tmultiword\nannotator4\tquiet.a\td1\tsecluded, peaceful\t\nannotator4\tquiet.a\td2\tshy;<b>timid</b>\t\n"),
  });
  await cp.getByRole("button", { name: "Preview import" }).click();
  const kept = cp.getByRole("table", { name: /Kept as written/ });
  await expect(kept.getByRole("row", { name: /^list 1 / })).toContainText("line 2: secluded, peaceful");
  await expect(kept.getByRole("row", { name: /^markup 1 / })).toContainText("line 3: <b>timid</b>");
  await cp.getByRole("button", { name: "Discard" }).click();
  await cp.getByLabel(/Strict: refuse the whole file/).check();
  await cp.getByRole("button", { name: "Preview import" }).click();
  const refusal = cp.getByRole("alert").and(cp.locator(".notice"));
  await expect(refusal).toContainText('r.tsv:2: error: answer, substitute 1 "secluded, peaceful": one substitute per field');
  await expect(refusal).toContainText("(rule: list)");
  await expect(refusal).toContainText("nothing was imported");
  await expect(refusal).toContainText('r.tsv:3: error: answer, substitute 2 "<b>timid</b>": no markup'); // in the list of all problems
  expect(await exported()).toBe(before);
  await coordinator.close();

  // Leave no draft behind: the seed's answer shows again.
  await page.evaluate(() => window.localStorage.clear());
  await page.reload();
  await expect(page.getByText("Your saved answer: hushed, silent, calm")).toBeVisible();
  await expect(sub(page, 1)).toHaveValue("hushed");
});

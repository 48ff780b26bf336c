import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

// annotator5 only, instance d2 (quiet.a): the demo seed holds annotator5's answer
// "reserved;withdrawn" there; the walk changes it and puts it back at the end, so
// the gold other specs derive is as seeded. Flags and notes change no gold line.

const SHOTS = process.env.E2E_SHOTS_DIR;
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const sub = (page: Page, n: number) => page.getByLabel(`Substitute ${n}`);

async function demoId(page: Page): Promise<string> {
  await page.goto("/annotate");
  const href = await page.getByRole("link", { name: /demo$/ }).first().getAttribute("href");
  return /\/annotate\/(\d+)/.exec(href ?? "")![1];
}

async function openD2(page: Page) {
  await page.goto("/annotate");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "demo" }) });
  await card.getByRole("link", { name: /demo$/ }).click();
  const review = page.getByRole("link", { name: "Review from the first instance" });
  await expect(review.or(sub(page, 1))).toBeVisible();
  if (await review.isVisible()) await review.click();
  await expect(page).toHaveURL(/\/annotate\/\d+\/\d+$/);
  if (!(await heading(page).textContent())?.includes("instance d2 ")) {
    await page.getByRole("complementary").getByRole("link", { name: "quiet", exact: true }).click();
    await expect(heading(page)).toContainText("instance d1 ");
    await page.getByRole("link", { name: "Next →" }).click();
  }
  await expect(heading(page)).toContainText("instance d2 ");
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("an annotator flags an item with a note; the coordinator sees it, returns it with a comment; the annotator fixes it", async ({ browser }) => {
  const ann = await (await browser.newContext()).newPage();
  const coord = await (await browser.newContext()).newPage();

  // The annotator flags d2 from the keyboard (Alt+F), writes a note, saves it on its own without touching the answer.
  await signIn(ann, "annotator5");
  await openD2(ann);
  await expect(sub(ann, 1)).toHaveValue("reserved");
  await ann.getByRole("heading", { level: 1 }).click();
  await ann.keyboard.press("Alt+f");
  const reason = ann.getByRole("combobox", { name: "Reason for the flag" });
  await expect(reason).toBeFocused();
  await reason.selectOption("unsure");
  await ann.getByRole("textbox", { name: "Note for the coordinator" }).fill("Shy or reserved? The sentence reads both ways.");
  await ann.getByRole("button", { name: "Save flag & note only" }).click();
  await expect(ann.getByText("Flag and note saved.")).toBeVisible();
  await expect(sub(ann, 1)).toHaveValue("reserved");

  // The coordinator sees it on the Flags tab (filtered) and beside the answers on the Gold tab.
  await signIn(coord, "coordinator");
  const pid = await (async () => {
    await coord.goto("/projects");
    const href = await coord.getByRole("link", { name: /^demo\b/ }).first().getAttribute("href");
    return /\/projects\/(\d+)/.exec(href ?? "")![1];
  })();
  await coord.goto(`/projects/${pid}/flags`);
  await coord.getByLabel("Flag", { exact: true }).selectOption("unsure");
  await coord.getByLabel("Annotator").selectOption("annotator5");
  await coord.getByRole("button", { name: "Filter" }).click();
  await expect(coord).toHaveURL(/flag=unsure/);
  const row = coord.getByRole("table", { name: "Flags and notes" }).getByRole("row").filter({ hasText: "annotator5" });
  await expect(row).toContainText("quiet.a d2");
  await expect(row).toContainText("Shy or reserved? The sentence reads both ways.");
  await expect(row).toContainText("reserved, withdrawn");
  await shoot(coord, "flags-list");
  const tsv = await (await coord.request.get(`/api/projects/${pid}/flags`)).text();
  expect(tsv.split("\n")).toContainEqual(expect.stringMatching(/^annotator5\tquiet\.a\td2\tunsure\tShy or reserved\? The sentence reads both ways\.\treserved;withdrawn\t/));

  await row.getByRole("link", { name: "quiet.a d2" }).click();
  const card = coord.getByRole("article").filter({ has: coord.getByRole("heading", { name: "quiet.a d2", exact: true }) });
  const answers = card.getByRole("table", { name: "Answers for d2" });
  await expect(answers.getByRole("row", { name: /annotator5/ })).toContainText("flag: unsure");
  await expect(answers.getByRole("row", { name: /annotator5/ })).toContainText("Shy or reserved?");

  // Return annotator5's answer with a comment.
  await card.getByText("Return to an annotator…").click();
  await card.getByRole("combobox", { name: "Annotator" }).selectOption("annotator5");
  await card.getByRole("textbox", { name: "Comment for them" }).fill("Withdrawn is too strong here; think of a quiet manner.");
  await card.getByRole("button", { name: "Return with comment" }).click();
  await expect(card.getByText("Returned d2 to annotator5.")).toBeVisible();
  await expect(answers.getByRole("row", { name: /annotator5/ })).toContainText("returned");
  await card.scrollIntoViewIfNeeded();
  if (SHOTS) for (const width of [1440, 390]) {
    await coord.setViewportSize({ width, height: 900 });
    await card.screenshot({ path: `${SHOTS}/gold-card-${width}.png` });
  }
  await coord.setViewportSize({ width: 1280, height: 720 });

  // The annotator finds it first, with a count, and the comment above the sentence.
  await ann.goto("/annotate");
  await expect(ann.getByText("1 returned to you")).toBeVisible();
  await ann.getByRole("link", { name: "Open returned demo" }).click();
  await expect(heading(ann)).toContainText("instance d2 ");
  const comment = ann.getByRole("region", { name: "Returned to you" });
  await expect(comment).toContainText("Withdrawn is too strong here; think of a quiet manner.");
  await shoot(ann, "workspace-returned");
  await sub(ann, 2).fill("soft-spoken");
  await sub(ann, 1).focus();
  await ann.keyboard.press("Enter");
  await expect(ann.getByRole("status").filter({ hasText: "Saved d2." })).toBeVisible();
  await ann.goto("/annotate");
  await expect(ann.getByText(/returned to you/)).toHaveCount(0);

  // Resolved: the Gold tab no longer marks it returned, and shows the fixed answer.
  await coord.reload();
  const rowAfter = coord.getByRole("article").filter({ has: coord.getByRole("heading", { name: "quiet.a d2", exact: true }) }).getByRole("table", { name: "Answers for d2" }).getByRole("row", { name: /annotator5/ });
  await expect(rowAfter).toContainText("soft-spoken");
  await expect(rowAfter).not.toContainText("returned");

  // Put the seed back: the answer as seeded, no flag, no note.
  await openD2(ann);
  await sub(ann, 2).fill("withdrawn");
  await ann.getByRole("checkbox", { name: "Flag this item" }).uncheck();
  await ann.getByRole("textbox", { name: "Note for the coordinator" }).fill("");
  await sub(ann, 1).focus();
  await ann.keyboard.press("Enter");
  await expect(ann.getByRole("status").filter({ hasText: "Saved d2." })).toBeVisible();
  await coord.goto(`/projects/${pid}/flags?annotator=annotator5`);
  await expect(coord.getByText("No flags or notes")).toBeVisible();
  // The return is logged with the save that answered it.
  const returned = coord.getByRole("table", { name: "Returned to annotators" }).getByRole("row").filter({ hasText: "annotator5" });
  await expect(returned).toContainText("Withdrawn is too strong here");
  await expect(returned.getByRole("link", { name: "quiet.a d2" })).toBeVisible();
  for (const width of [1440, 390]) {
    await coord.setViewportSize({ width, height: 900 });
    await coord.getByRole("table", { name: "Returned to annotators" }).screenshot({ path: "test-results/screens/flags-returned-" + width + ".png" });
  }
  await coord.setViewportSize({ width: 1280, height: 720 });
  await expect(returned).toContainText(/answered again \(revision \d+\)/);
});

test("rough edges: a 404 for an unknown project, a lost session links back, and the phone layout", async ({ page, browser }) => {
  await signIn(page, "annotator5");
  const res = await page.goto("/annotate/999999");
  expect(res?.status()).toBe(404);
  await expect(page.getByText("No such project or page")).toBeVisible();
  await page.getByRole("link", { name: "← Your projects" }).click();
  await expect(page).toHaveURL(/\/annotate$/);
  const pid = await demoId(page);

  // Phone: the Keys panel is collapsed, the guidelines' Close is reachable.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/annotate/${pid}`);
  const review = page.getByRole("link", { name: "Review from the first instance" });
  await expect(review.or(sub(page, 1))).toBeVisible();
  if (await review.isVisible()) await review.click();
  await expect(page).toHaveURL(/\/annotate\/\d+\/\d+$/);
  await expect(page.getByText("Save & next", { exact: false }).first()).toBeVisible();
  await expect(page.locator("details").filter({ has: page.getByRole("heading", { name: "Keys" }) })).not.toHaveAttribute("open");
  await page.getByRole("button", { name: /Guidelines/ }).click();
  const close = page.getByRole("dialog").getByRole("button", { name: "Close" });
  await expect(close).toBeInViewport();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/guidelines-390.png` });
  await close.click();
  await expect(page.getByRole("dialog")).toBeHidden();

  // A page opened without a session goes to sign-in and comes back after it.
  const fresh = await (await browser.newContext()).newPage();
  const url = new URL(page.url());
  await fresh.goto(url.pathname);
  await expect(fresh).toHaveURL(/\/signin\?next=/);
  await fresh.getByLabel("User name").fill("annotator5");
  await fresh.getByLabel("Password").fill("lexgold-demo");
  await fresh.getByRole("button", { name: "Sign in" }).click();
  await expect(fresh).toHaveURL(new RegExp(`${url.pathname}$`));

  // A session lost while working: the save says so and links to sign in, back to this page.
  await page.context().clearCookies();
  await page.setViewportSize({ width: 1280, height: 720 });
  await sub(page, 1).focus();
  await page.keyboard.press("Enter");
  const again = page.getByRole("link", { name: "Sign in again" });
  await expect(again).toBeVisible();
  expect(await again.getAttribute("href")).toBe(`/signin?next=${encodeURIComponent(url.pathname)}`);
});

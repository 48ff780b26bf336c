import { type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

// annotator3 only (another spec may save as annotator1). The demo seed already
// holds annotator3's answers to all 40 instances, and other specs derive gold,
// agreement and progress from them: every test here works in its own lexelt,
// reached through the "All targets" list, and puts back the answers it changed
// (in the seed's words), so the tests depend neither on each other's order nor
// leave the demo different for others.

const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const sub = (page: Page, n: number) => page.getByLabel(`Substitute ${n}`);
const overall = (page: Page) => page.getByRole("progressbar", { name: "Overall progress" });
const conflictRegion = (page: Page) => page.getByRole("region", { name: "Saved elsewhere in the meantime" });

async function openDemo(page: Page) {
  await page.goto("/annotate");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "demo" }) });
  await card.getByRole("link", { name: /(Start|Continue|Review) demo/ }).click();
  await expect(page).toHaveURL(/\/annotate\/\d+(\/\d+)?$/);
  const review = page.getByRole("link", { name: "Review from the first instance" });
  if (await review.isVisible()) await review.click();
  await expect(page).toHaveURL(/\/annotate\/\d+\/\d+$/);
}

/** Jump to a target through the progress list (its first unanswered instance, else its first). */
async function openTarget(page: Page, label: string, instanceId: string) {
  if ((await heading(page).textContent())?.includes(`instance ${instanceId} `)) return;
  await page.getByRole("complementary").getByRole("link", { name: label, exact: true }).click();
  await expectAt(page, instanceId);
}

async function expectAt(page: Page, instanceId: string) {
  await expect(heading(page)).toContainText(`instance ${instanceId} `);
}

/** Keyboard only: replace the focused field's text. */
async function replace(page: Page, text: string) {
  await page.keyboard.press("ControlOrMeta+a");
  if (text) await page.keyboard.type(text);
  else await page.keyboard.press("Delete");
}

/** Keyboard only: from the first field, give these substitutes (up to three), clearing the rest. */
async function typeSubstitutes(page: Page, ...subs: string[]) {
  await expect(sub(page, 1)).toBeFocused();
  for (let i = 0; i < 3; i++) {
    if (i > 0) await page.keyboard.press("Tab");
    await replace(page, subs[i] ?? "");
  }
}

test("an annotator works from the keyboard: save & next, NIL, NAME, multiword, validation, going back", async ({ page }) => {
  await signIn(page, "annotator3");
  await page.goto("/annotate");
  await expect(page.getByText("40 of 40 done — finished")).toBeVisible();
  await openDemo(page);
  await openTarget(page, "quiet", "d1");
  await expect(heading(page)).toContainText("Target: quiet");
  await expect(page.locator("mark")).toHaveText("quiet");
  await expect(page.getByText(/adjective|quiet\.a/)).toHaveCount(0);
  await expect(sub(page, 1)).toHaveValue("silent");

  // d1: Enter saves and moves on
  await typeSubstitutes(page, "silent", "hushed");
  await page.keyboard.press("Enter");
  await expectAt(page, "d2");
  await expect(page.getByRole("status")).toHaveText(/Saved d1\./);
  await expect(sub(page, 1)).toBeFocused();

  // d2: the target word itself is refused beside the field (the save rules, checked in the browser and again on the server)
  await replace(page, "Quiet");
  await page.keyboard.press("Enter");
  await expect(page.locator("#sub1-error")).toHaveText(/"Quiet" is the target word itself/);
  await expect(sub(page, 1)).toHaveAttribute("aria-invalid", "true");
  await expect(sub(page, 1)).toHaveAttribute("aria-describedby", "sub1-error");
  await expect(sub(page, 1)).toBeFocused();
  await expectAt(page, "d2");
  await replace(page, "reserved");
  await page.keyboard.press("Enter");
  await expectAt(page, "d3");

  // d3: NIL, then NAME, from the keyboard: exclusive, and the fields are cleared and disabled
  await page.keyboard.press("Alt+l");
  const nil = page.getByRole("button", { name: /^NIL/ });
  const name = page.getByRole("button", { name: /^NAME/ });
  await expect(nil).toHaveAttribute("aria-pressed", "true");
  await expect(sub(page, 1)).toBeDisabled();
  await expect(sub(page, 1)).toHaveValue("");
  await page.keyboard.press("Alt+n");
  await expect(name).toHaveAttribute("aria-pressed", "true");
  await expect(nil).toHaveAttribute("aria-pressed", "false");
  await page.keyboard.press("Enter");
  await expectAt(page, "d4");

  // d4 unchanged; d5: a multiword, its phrase prefilled with the head word and selected: typing the
  // whole phrase replaces it (never "quietquiet corner"), End keeps it to type on after it
  await page.keyboard.press("Enter");
  await expectAt(page, "d5");
  await page.keyboard.press("Alt+m");
  const phrase = page.getByLabel("Multiword phrase");
  await expect(page.getByLabel("Part of a multiword")).toBeChecked();
  await expect(phrase).toBeFocused();
  await expect(phrase).toHaveValue("quiet");
  await page.keyboard.type("quiet nook");
  await expect(phrase).toHaveValue("quiet nook");
  // Off and on again: the phrase typed is kept, selected; End keeps it and types on after it.
  await page.keyboard.press("Alt+m");
  await expect(page.getByLabel("Part of a multiword")).not.toBeChecked();
  await page.keyboard.press("Alt+m");
  await expect(phrase).toBeFocused();
  await page.keyboard.press("End");
  for (let i = 0; i < 4; i++) await page.keyboard.press("Backspace");
  await page.keyboard.type("corner");
  await expect(phrase).toHaveValue("quiet corner");
  await page.keyboard.press("Enter");
  await expectAt(page, "d6");

  // back: Alt+← and PageUp, and the browser's own back and forward
  await page.keyboard.press("Alt+ArrowLeft");
  await expectAt(page, "d5");
  await expect(phrase).toHaveValue("quiet corner");
  await page.keyboard.press("PageUp");
  await expectAt(page, "d4");
  await expect(phrase).toHaveValue("quiet word");
  await page.goBack();
  await expectAt(page, "d5");
  await page.goForward();
  await expectAt(page, "d4");
  await page.keyboard.press("Alt+ArrowLeft");
  await expectAt(page, "d3");
  await expect(name).toHaveAttribute("aria-pressed", "true");

  // change d3 back to its seed answer
  await page.keyboard.press("Alt+n");
  await expect(name).toHaveAttribute("aria-pressed", "false");
  await typeSubstitutes(page, "uneventful", "calm");
  await page.keyboard.press("Enter");
  await expectAt(page, "d4");
  await page.keyboard.press("PageDown");
  await expectAt(page, "d5");
  await page.keyboard.press("Alt+m");
  await expect(page.getByLabel("Part of a multiword")).not.toBeChecked();
  await page.keyboard.press("Enter");
  await expectAt(page, "d6");
  await openTarget(page, "quiet", "d1");
  await expect(sub(page, 2)).toHaveValue("hushed");
  await typeSubstitutes(page, "silent", "peaceful");
  await page.keyboard.press("Enter");
  await expectAt(page, "d2");
  await page.keyboard.press("Alt+ArrowLeft");
  await expect(sub(page, 2)).toHaveValue("peaceful");
  await expect(page.getByText("Your saved answer: silent, peaceful")).toBeVisible();

  // progress: changing answers never counts twice
  await expect(overall(page)).toHaveAttribute("aria-valuetext", "40 of 40 done");
  await expect(page.getByText("40 of 40 done")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Progress on quiet" })).toHaveAttribute("aria-valuetext", "5 of 5 done");

  // the guidelines, one keystroke away
  await page.getByRole("heading", { name: "Keys" }).click();
  await page.keyboard.press("Shift+?");
  const dialog = page.getByRole("dialog", { name: "Guidelines" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("up to three substitutes");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("unsaved typing survives a reload and a skip, and is cleared once saved", async ({ page }) => {
  await signIn(page, "annotator3");
  await openDemo(page);
  await openTarget(page, "sharp", "d11");
  const url = page.url();
  await expect(sub(page, 2)).toHaveValue("honed");
  await page.keyboard.press("Tab");
  await replace(page, "acut");
  await page.reload();
  await expectAt(page, "d11");
  await expect(page.getByText("Restored unsaved draft.")).toBeVisible();
  await expect(sub(page, 1)).toHaveValue("keen");
  await expect(sub(page, 2)).toHaveValue("acut");

  // Skip moves on without saving; the draft waits
  await page.keyboard.press("Alt+s");
  await expectAt(page, "d12");
  await page.keyboard.press("Alt+ArrowLeft");
  await expectAt(page, "d11");
  await expect(sub(page, 2)).toHaveValue("acut");
  await sub(page, 2).press("End");
  await page.keyboard.type("e");
  await page.keyboard.press("Enter");
  await expectAt(page, "d12");
  await page.goto(url);
  await expect(sub(page, 2)).toHaveValue("acute");
  await expect(page.getByText("Restored unsaved draft.")).toHaveCount(0);
  await expect(page.getByText("Your saved answer: keen, acute")).toBeVisible();

  // the seed's answer back
  await page.keyboard.press("Tab");
  await replace(page, "honed");
  await page.keyboard.press("Enter");
  await expectAt(page, "d12");
});

test("two tabs saving the same instance: the later one sees the conflict and chooses", async ({ page, context }) => {
  await signIn(page, "annotator3");
  await openDemo(page);
  await openTarget(page, "shell", "d16");
  const url = page.url();
  const other = await context.newPage();
  await other.goto(url);
  await expectAt(other, "d16");
  const revision = async (p: Page) => Number((await p.getByText(/^Saved \(revision \d+\)/).textContent())?.match(/\d+/)?.[0]);

  await sub(page, 1).fill("husk");
  await sub(page, 1).press("Enter");
  await expectAt(page, "d17");

  await sub(other, 1).fill("casing");
  await sub(other, 1).press("Enter");
  await expect(conflictRegion(other)).toBeVisible();
  await expect(conflictRegion(other)).toContainText("Yours (not saved)casing, conch");
  await expect(conflictRegion(other)).toContainText(/Saved \(revision \d+\)husk, conch/);
  const r = await revision(other);
  await expectAt(other, "d16");
  await conflictRegion(other).getByRole("button", { name: "Keep mine" }).click();
  await expectAt(other, "d17");

  await page.goto(url);
  await expect(sub(page, 1)).toHaveValue("casing");

  // the other way round: the stale tab takes the saved answer
  await other.goto(url);
  await sub(other, 1).fill("seashell");
  await sub(other, 1).press("Enter");
  await expectAt(other, "d17");
  await sub(page, 1).fill("hull");
  await sub(page, 1).press("Enter");
  await expect(conflictRegion(page)).toContainText(`Saved (revision ${r + 2})seashell, conch`);
  await page.getByRole("button", { name: "Use saved" }).click();
  await expect(conflictRegion(page)).toHaveCount(0);
  await expect(sub(page, 1)).toHaveValue("seashell");
  await page.reload();
  await expect(sub(page, 1)).toHaveValue("seashell");
  await expect(page.getByText("Restored unsaved draft.")).toHaveCount(0);
  await other.close();
});

test("save & next shows the next instance from the save's answer, and back / forward keep the saved answer", async ({ page }) => {
  await signIn(page, "annotator3");
  await openDemo(page);
  await openTarget(page, "quiet", "d1");
  const requests: string[] = [];
  page.on("request", (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
  await typeSubstitutes(page, "silent", "still");
  await page.keyboard.press("Enter");
  await expectAt(page, "d2");
  await expect(page).toHaveURL(/\/annotate\/\d+\/\d+$/);
  const d2 = page.url();
  // one request: the save (JSON to the save route); the page is not fetched again
  expect(requests).toEqual([expect.stringMatching(/^POST \/api\/projects\/\d+\/responses\/\d+$/)]);

  // leave the workspace, come back with the browser's back button: the answer saved above is what shows
  await page.getByRole("link", { name: "Annotate", exact: true }).click();
  await expect(page).toHaveURL(/\/annotate$/);
  await page.goBack();
  await expect(page).toHaveURL(d2);
  await expectAt(page, "d2");
  await page.keyboard.press("Alt+ArrowLeft");
  await expectAt(page, "d1");
  await expect(page.getByText("Your saved answer: silent, still")).toBeVisible();

  // the seed's answer back
  await typeSubstitutes(page, "silent", "peaceful");
  await page.keyboard.press("Enter");
  await expectAt(page, "d2");
});

test("a save the server asks to wait for (429, Retry-After) is kept, said calmly, and sent again", async ({ page }) => {
  await signIn(page, "annotator3");
  await openDemo(page);
  await openTarget(page, "sharp", "d11");
  await expect(sub(page, 2)).toHaveValue("honed");
  // The first save is answered as lib/server/kernel/rate-limit.ts answers a flood; the second goes through.
  const saves: string[] = [];
  await page.route(/\/api\/projects\/\d+\/responses\/\d+$/, async (route) => {
    saves.push(route.request().postData() ?? "");
    if (saves.length === 1) {
      await route.fulfill({
        status: 429,
        headers: { "Retry-After": "2", "Cache-Control": "no-store" },
        contentType: "application/json",
        body: JSON.stringify({ ok: false, message: "Not saved yet: too many saves at once.", retryAfterMs: 2000 }),
      });
    } else await route.continue();
  });
  await expect(sub(page, 1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText(/The server is busy: your answer is kept here and goes again in 2 s\./);
  await expectAt(page, "d11");
  await expectAt(page, "d12");
  await expect(page.getByRole("status")).toHaveText(/Saved d11\./);
  expect(saves).toHaveLength(2);
  expect((JSON.parse(saves[1]) as { response: { substitutes: string[] } }).response.substitutes.filter(Boolean)).toEqual(["keen", "honed"]);
  await page.unroute(/\/api\/projects\/\d+\/responses\/\d+$/);
  // Nothing was left behind as a draft: the saved answer is what shows.
  await page.keyboard.press("Alt+ArrowLeft");
  await expectAt(page, "d11");
  await expect(page.getByText("Restored unsaved draft.")).toHaveCount(0);
  await expect(sub(page, 2)).toHaveValue("honed");
});

test("the server has the icon a browser asks for: no 404 for /favicon.ico on a page load", async ({ page }) => {
  const missing: string[] = [];
  page.on("response", (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  await signIn(page, "annotator1");
  await page.goto("/annotate");
  const icon = await page.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toBe("image/x-icon");
  expect((await icon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  // No <link rel="icon">: with one, Chromium fetches the icon again on every Save & next (see the test above).
  await expect(page.locator('link[rel="icon"]')).toHaveCount(0);
  expect(missing).toEqual([]);
});

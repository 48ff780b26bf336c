/**
 * The coordinator's crowd and judgement forms in a browser without JavaScript (#38 item 2): what
 * happens when a form is sent before the page has hydrated. Each press is a native multipart post
 * with the form's own `$ACTION_…` fields; the server carries the action out and answers with the
 * page and its outcome, and goes on serving (a form used to wedge its server process for good).
 *
 * The sign-in page needs its script, so the session is made in a browser with JavaScript and
 * carried over to one without. E2E_SHOTS_DIR: the Crowd tab and the Delete page without JavaScript,
 * wide and narrow.
 */
import { type Browser, type BrowserContext, type Page, expect, test } from "@playwright/test";
import { openDemo, signIn } from "./helpers";

test.describe.configure({ mode: "serial" });

let scriptless: BrowserContext;
let page: Page;
let projectId = 0;
const SHOTS = process.env.E2E_SHOTS_DIR;

async function shoot(p: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 390]) {
    await p.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await p.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await p.setViewportSize({ width: 1280, height: 720 });
}

/** Names of this run's own, so that the shared demo's other studies and rounds do not matter. */
const tag = Date.now().toString(36);

async function withoutScript(browser: Browser, name: string): Promise<BrowserContext> {
  const signedIn = await browser.newContext();
  const p = await signedIn.newPage();
  await signIn(p, name);
  projectId = await openDemo(p);
  const state = await signedIn.storageState();
  await signedIn.close();
  return browser.newContext({ javaScriptEnabled: false, storageState: state });
}

test.beforeAll(async ({ browser }) => {
  scriptless = await withoutScript(browser, "coordinator");
  page = await scriptless.newPage();
});

test.afterAll(async () => {
  await scriptless?.close();
});

test("without JavaScript the coordinator opens a study, pauses it and opens it again", async () => {
  const name = `no-script ${tag}`;
  await page.goto(`/projects/${projectId}/crowd`);
  // The New study form is there to fill, whether or not the project has a study (its button needs a script).
  const form = page.getByRole("form", { name: "New study" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Completion code").fill("C0DE");
  await form.getByRole("button", { name: "Open the study" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Opened “${name}”` })).toBeVisible();
  const study = page.getByRole("article", { name });
  await expect(study.getByText("open", { exact: true })).toBeVisible();

  await study.getByRole("form", { name: `Pause ${name}` }).getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("status").filter({ hasText: `“${name}” is paused` })).toBeVisible();
  await expect(page.getByRole("article", { name }).getByText("paused", { exact: true })).toBeVisible();

  await page.getByRole("article", { name }).getByRole("form", { name: `Open again ${name}` }).getByRole("button", { name: "Open again" }).click();
  await expect(page.getByRole("status").filter({ hasText: `“${name}” is open` })).toBeVisible();
  await expect(page.getByRole("article", { name }).getByText("open", { exact: true })).toBeVisible();

  await shoot(page, "no-script-crowd");

  // The server still serves: another page, at once; the Delete page's button can be pressed without a script.
  await page.goto(`/projects/${projectId}/delete`);
  await expect(page.getByRole("button", { name: "Delete this project" })).toBeEnabled();
  await shoot(page, "no-script-delete");
});

test("without JavaScript the coordinator creates a judgement round and closes it", async () => {
  const name = `No script ${tag}`;
  await page.goto(`/projects/${projectId}/judgement`);
  const form = page.getByRole("form", { name: "New judgement round" });
  await form.getByRole("textbox", { name: "Name" }).fill(name);
  await form.getByLabel("Sample size").fill("3");
  await form.getByRole("checkbox", { name: /^annotator1/ }).check();
  await form.getByRole("button", { name: "Create round" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Created "${name}"` })).toBeVisible();

  await page.getByRole("form", { name: `Close ${name}` }).getByRole("button", { name: "Close round" }).click();
  await expect(page.getByText(`"${name}" is closed: judges can no longer label.`)).toBeVisible();
  await expect(page.getByRole("form", { name: `Reopen ${name}` })).toBeVisible();

  await page.goto(`/projects/${projectId}/crowd`);
  await expect(page.getByRole("heading", { level: 1, name: "Crowd" })).toBeVisible();
});

/**
 * The app in a browser without JavaScript (#38): what happens when a form is sent before the page
 * has hydrated, or never runs its script. Signing in, a server action's form (a native multipart
 * post with the form's own `$ACTION_…` fields: the page comes back with its outcome), an upload
 * (posted to its route, which answers with the page), a study's start by its link (next-auth's
 * callback with the CSRF token the page holds) — each carried out, and the server goes on serving
 * (a form used to wedge its server process for good).
 *
 * E2E_SHOTS_DIR: each page without JavaScript, wide and narrow.
 */
import { type Browser, type BrowserContext, type Page, expect, test } from "@playwright/test";
import { DEMO_PASSWORD, shootWideAndNarrow } from "./helpers";

test.describe.configure({ mode: "serial" });

let scriptless: BrowserContext;
let page: Page;
let projectId = 0;
const SHOTS = process.env.E2E_SHOTS_DIR;
const shoot = (p: Page, name: string) => shootWideAndNarrow(p, SHOTS, name);

/** Names of this run's own, so that the shared demo's other studies, rounds and accounts do not matter. */
const tag = Date.now().toString(36);
const member = `noscript-${tag}`;
const memberPassword = `no-script-${tag}-pass`;

/** A browser context without JavaScript. */
const withoutScript = (browser: Browser) => browser.newContext({ javaScriptEnabled: false });

/** Sign in on the sign-in page, without JavaScript: the form posts itself to next-auth's callback. */
async function signInWithoutScript(p: Page, name: string, password: string) {
  await p.goto("/signin");
  await p.getByLabel("User name").fill(name);
  await p.getByLabel("Password").fill(password);
  await p.getByRole("button", { name: "Sign in" }).click();
  await expect(p.getByRole("button", { name: "Sign out" })).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  scriptless = await withoutScript(browser);
  page = await scriptless.newPage();
});

test.afterAll(async () => {
  await scriptless?.close();
});

test("without JavaScript the coordinator signs in: a wrong password is refused with the reason, the right one goes back to the page asked for", async () => {
  await page.goto("/projects");
  await expect(page).toHaveURL(/\/signin\?next=%2Fprojects$/);
  await page.getByLabel("User name").fill("coordinator");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("That user name and password do not match.");
  await shoot(page, "no-script-signin");
  await page.getByLabel("User name").fill("coordinator");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await page.getByRole("link", { name: /^demo/ }).first().click();
  projectId = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
  expect(projectId).toBeGreaterThan(0);
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
});

test("without JavaScript the coordinator adds a member on the Team tab: a new account, its initial password shown once", async () => {
  await page.goto(`/projects/${projectId}/members`);
  const create = page.locator("form").filter({ has: page.getByRole("heading", { name: "Create an account" }) });
  await create.getByLabel("User name").fill(member);
  await create.getByLabel("Initial password").fill(memberPassword);
  await create.getByRole("button", { name: "Create and add" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Created annotator ${member} and added them to the project.` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: `Initial password for ${member}` }).locator("code")).toHaveText(memberPassword);
  await expect(page.getByRole("row", { name: new RegExp(`^${member}`) })).toBeVisible();
  await shoot(page, "no-script-team");
});

test("without JavaScript the coordinator decides a lemma and adjudicates a substitute on the Gold tab", async () => {
  // The first open form, found through the "open" filter, then kept as typed by its row's button
  // (outside the row's form: form="…"), on the page of that form alone.
  await page.goto(`/projects/${projectId}/gold?open=1`);
  const open = page.getByRole("row").filter({ has: page.getByText("open", { exact: true }) }).first();
  const form = (await open.getByRole("rowheader").textContent())!.trim();
  await page.goto(`/projects/${projectId}/gold?q=${encodeURIComponent(form)}`);
  const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: form, exact: true }) });
  await row.getByRole("button", { name: `Keep ${form} as typed` }).click();
  await expect(row.getByText(`Kept as typed: ${form}`)).toBeVisible();
  await expect(row.getByText("kept as typed", { exact: true })).toBeVisible();
  await shoot(page, "no-script-gold-lemmas");

  // The gold review: a substitute's box opens natively; its link loads the page with its form.
  await page.goto(`/projects/${projectId}/gold?view=instances`);
  const card = page.getByRole("article").first();
  const substitutes = card.getByRole("list", { name: /'s substitutes$/ }).first();
  const box = substitutes.locator("details").first();
  const word = (await box.locator("xpath=preceding-sibling::span[1]").textContent())!.trim();
  await box.locator("summary").click();
  await box.getByRole("link", { name: "Open the form" }).click();
  await expect(page).toHaveURL(/adjudicate=/);
  const adjudicate = page.getByRole("form", { name: new RegExp(`^Adjudicate ${word} of `) });
  await adjudicate.getByLabel("Reason (optional)").fill("Checked without JavaScript.");
  await shoot(page, "no-script-gold-adjudicate");
  await adjudicate.getByRole("button", { name: /^Strike / }).click();
  await expect(page.getByLabel(`${word}, struck`).first()).toBeVisible();
});

test("without JavaScript the coordinator imports lexelt XML: the page follows the job until it ends", async () => {
  await page.goto(`/projects/${projectId}`);
  const xml = `<corpus lang="english"><lexelt item="noscript${tag}.n"><instance id="ns-${tag}-1"><context>A <head>test</head> without script.</context></instance></lexelt></corpus>\n`;
  await page.getByLabel("Lexelt XML file").setInputFiles({ name: `no-script-${tag}.xml`, mimeType: "application/xml", buffer: Buffer.from(xml) });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}\\?outcome=`));
  // The page loads itself again while the job runs (a refresh in <noscript>), then shows its report.
  await expect(page.getByRole("status").filter({ hasText: /instance/ }).first()).toBeVisible();
  await expect(page.getByRole("cell", { name: `noscript${tag}.n` })).toBeVisible({ timeout: 60_000 });
  await shoot(page, "no-script-import");

  // An empty upload is refused with the reason, on the page.
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("alert")).toHaveText("Choose a lexelt XML file to import.");
});

test("without JavaScript the Scoring, Datasets and Accounts pages offer their forms, and the script's controls stay out of the way", async () => {
  await page.goto(`/projects/${projectId}/scoring`);
  // The choices of gold and figures are forms that load the page for them; the uploads post themselves.
  await expect(page.getByRole("form", { name: "Rank runs against" }).getByRole("button", { name: "Rank against this gold" })).toBeVisible();
  await expect(page.getByRole("form", { name: "Figures" }).getByRole("button", { name: "Show" })).toBeVisible();
  await expect(page.getByLabel("Store it anyway if some lines are in error (they are skipped)")).toBeVisible();
  await page.getByRole("form", { name: "Figures" }).getByLabel("repaired").check();
  await page.getByRole("form", { name: "Figures" }).getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/figures=repaired/);
  await expect(page.getByRole("form", { name: "Figures" }).getByLabel("repaired")).toBeChecked();
  await shoot(page, "no-script-scoring");
  await page.goto(`/projects/${projectId}/datasets`);
  await expect(page.getByLabel("Instance id prefix (TSAR / MLSP)")).toBeVisible();
  await expect(page.getByRole("link", { name: "Download TSAR / MLSP TSV, spreadsheet-safe" })).toBeVisible();
  await shoot(page, "no-script-datasets");
  await page.goto("/accounts");
  await expect(page.getByRole("button", { name: `Reset password of ${member}` })).toBeVisible();
  await shoot(page, "no-script-accounts");
});

test("without JavaScript the new member changes their password: every session ends, and the new one signs in", async ({ browser }) => {
  const own = await withoutScript(browser);
  const p = await own.newPage();
  try {
    await signInWithoutScript(p, member, memberPassword);
    await p.goto("/account");
    await p.getByLabel("Current password").fill(memberPassword);
    await p.getByLabel("New password", { exact: true }).fill(`${memberPassword}-2`);
    await p.getByLabel("New password again").fill(`${memberPassword}-2`);
    await shoot(p, "no-script-account");
    await p.getByRole("button", { name: "Change password" }).click();
    await expect(p.getByRole("status")).toContainText("Password changed");
    await p.goto("/annotate");
    await expect(p).toHaveURL(/\/signin/);
    await signInWithoutScript(p, member, `${memberPassword}-2`);
    // Signing out without JavaScript too.
    await p.getByRole("button", { name: "Sign out" }).click();
    await expect(p).toHaveURL(/\/signin$/);
    await p.goto("/annotate");
    await expect(p).toHaveURL(/\/signin/);
  } finally {
    await own.close();
  }
});

test("without JavaScript a crowd participant joins by a study's plain link, after its consent", async ({ browser }) => {
  const name = `no-script link ${tag}`;
  await page.goto(`/projects/${projectId}/crowd`);
  const form = page.getByRole("form", { name: "New study" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Platform").selectOption("link");
  await form.getByLabel("Consent (Markdown)").fill("You agree to take part in a test without script.");
  await form.getByRole("button", { name: "Open the study" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Opened “${name}”` })).toBeVisible();
  const link = await page.getByRole("article", { name }).getByRole("textbox", { name: /^Link of / }).inputValue();
  const study = new URL(link).pathname;

  const crowd = await withoutScript(browser);
  const p = await crowd.newPage();
  try {
    await p.goto(study);
    await expect(p.getByRole("region", { name: "Consent" })).toContainText("You agree to take part");
    await p.getByLabel("Your id").fill(`ns-${tag}`);
    await shoot(p, "no-script-study");
    await p.getByRole("button", { name: "I agree, start" }).click();
    await expect(p.getByRole("heading", { name: "You have started" })).toBeVisible();
    await expect(p.getByTestId("resume-code")).toHaveText(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await shoot(p, "no-script-study-started");
    await expect(p.getByRole("link", { name: "Continue to the study" })).toHaveAttribute("href", /^\/annotate\/\d+$/);
    // Answering needs the page's script (left for now, #38): the workspace says so, and its Save sends nothing.
    await p.getByRole("link", { name: "Continue to the study" }).click();
    await expect(p.getByText(/(saves|checks) your answers with JavaScript: turn it on in this browser/)).toBeVisible();
    await expect(p.getByRole("button", { name: /^(Save & next|Check my answer)$/ })).toBeDisabled();
    await shoot(p, "no-script-workspace");
  } finally {
    await crowd.close();
  }
  // The participant is on the Crowd tab.
  await page.goto(`/projects/${projectId}/crowd`);
  await expect(page.getByText(`ns-${tag}`)).toBeVisible();
});

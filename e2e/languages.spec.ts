/**
 * A study in another language: the coordinator creates a German project on the
 * page, imports a small lexelt XML, adds an annotator; the annotator's page
 * marks the sentence and the answer fields as German, `Fußweg` and `Ausmaß` are
 * typed and saved as they are, and the gold downloaded holds them as typed.
 * Works on a project of its own, never the demo.
 */
import { expect, test } from "@playwright/test";
import { downloadText, signIn } from "./helpers";

test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
const PROJECT = `deutsch ${stamp}`;
const ANNOTATOR = `leserin-${stamp}`;
const PASSWORD = "lesen-am-bach-7";
let projectId = 0;

// Sentences written for this test.
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<corpus lang="german">
<lexelt item="weg.n">
<instance id="w1"><context>Der schmale <head>Weg</head> führt am Bach entlang bis zum Dorf .</context></instance>
</lexelt>
<lexelt item="umfang.n">
<instance id="u1"><context>Der <head>Umfang</head> der Schäden war größer als befürchtet .</context></instance>
</lexelt>
</corpus>
`;

test("the coordinator creates a German project on the page, imports a corpus and adds an annotator", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto("/projects");
  await page.getByLabel("Project name").fill(PROJECT);
  // A tag that is not BCP 47 is refused beside the field.
  await page.getByLabel("Language").fill("de_DE");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.locator("#project-language-error")).toHaveText(/"de_DE" is not a BCP 47 language tag/);
  await page.getByLabel("Project name").fill(PROJECT);
  await page.getByLabel("Language").fill("de");
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(PROJECT);
  projectId = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
  await expect(page.getByLabel("Language")).toHaveValue("de");

  await page.getByLabel("Lexelt XML file").setInputFiles({ name: "deutsch.xml", mimeType: "text/xml", buffer: Buffer.from(XML) });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(/2 instances in 2 lexelts/);

  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Team" }).click();
  await page.getByLabel("User name").fill(ANNOTATOR);
  await page.getByLabel("Initial password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create and add" }).click();
  await expect(page.getByText(`Created annotator ${ANNOTATOR}`)).toBeVisible();
});

test("the annotator's page is German, and Fußweg and Ausmaß are saved as typed", async ({ page }) => {
  await signIn(page, ANNOTATOR, PASSWORD);
  await page.goto(`/annotate/${projectId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("instance w1 ");
  const sentence = page.locator("p", { has: page.locator("mark") });
  await expect(sentence).toHaveAttribute("lang", "de");
  await expect(sentence).toContainText("führt am Bach entlang");
  const sub1 = page.getByLabel("Substitute 1");
  await expect(sub1).toHaveAttribute("lang", "de");
  await expect(page.getByLabel("Substitute 2")).toHaveAttribute("lang", "de");

  await sub1.click();
  await sub1.pressSequentially("Fußweg");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toHaveText(/Saved w1\./);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("instance u1 ");

  await page.getByLabel("Substitute 1").pressSequentially("Ausmaß");
  await page.keyboard.press("Enter");
  // The last instance saved, the workspace says all is done (the "Saved u1." status may be gone by
  // then on a busy machine); the answer as typed is checked below.
  await expect(page.getByText("You have answered all 2 instances.")).toBeVisible();

  // Back on the first: the answer as typed.
  await page.goto(`/annotate/${projectId}`);
  await page.getByRole("link", { name: "Review from the first instance" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("instance w1 ");
  await expect(page.getByLabel("Substitute 1")).toHaveValue("Fußweg");
});

test("the gold downloaded holds the answers as typed", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto(`/projects/${projectId}/gold`);
  const gold = await downloadText(page, /Download gold/);
  expect(gold.text).toContain("weg.n w1 :: Fußweg 1;");
  expect(gold.text).toContain("umfang.n u1 :: Ausmaß 1;");
  expect(gold.text).not.toMatch(/Fussweg|Ausmass|Fuweg/);
});

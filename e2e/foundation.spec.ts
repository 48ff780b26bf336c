import { existsSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const trial = path.resolve(import.meta.dirname, "../../shared/data/semeval2007/trial/lexsub_trial.xml");

test("a wrong password is refused with a message", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("User name").fill("coordinator");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").and(page.locator(".notice"))).toHaveText(/do not match/);
});

test("signed-out visitors are sent to sign in", async ({ page }) => {
  await page.goto("/projects");
  await expect(page).toHaveURL(/\/signin/);
});

test("the coordinator sees the demo project and its lexelts", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto("/projects");
  await page.getByRole("link", { name: /demo/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/demo/);
  await expect(page.getByRole("cell", { name: "run.n.v", exact: true })).toBeVisible();
});

test("the coordinator creates a project and imports a lexelt file through the page", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto("/projects");
  const name = `e2e ${Date.now()}`;
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);

  let file = trial;
  let expected = /300 instances in 34 lexelts; added 300 instances and 34 lexelts/;
  if (!existsSync(trial)) {
    file = path.join(os.tmpdir(), `lexgold-e2e-${Date.now()}.xml`);
    writeFileSync(
      file,
      `<?xml version="1.0"?>\n<corpus lang="english"><lexelt item="lamp.n"><instance id="L1"><context>a <head>lamp</head> &#8221 ;</context></instance></lexelt></corpus>\n`,
    );
    expected = /1 instance in 1 lexelt; added 1 instance and 1 lexelt/;
  }
  await page.getByLabel("Lexelt XML file").setInputFiles(file);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(expected);
  await expect(page.getByRole("status")).toHaveText(/repairs/);
  // The job's end refreshes the project's counts, without a reload.
  await expect(page.getByText(file === trial ? "34 lexelts · 300 instances" : "1 lexelt · 1 instance")).toBeVisible();

  // The same file again adds nothing, and says so.
  await page.getByLabel("Lexelt XML file").setInputFiles(file);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(/already in the project; nothing added/);
});

test("a broken file is refused with its line, and nothing is imported", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto("/projects");
  const name = `broken ${Date.now()}`;
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  await page.getByLabel("Lexelt XML file").setInputFiles({
    name: "broken.xml",
    mimeType: "text/xml",
    buffer: Buffer.from(`<?xml version="1.0"?>\n<corpus><lexelt item="a.n">\n<instance id="7"><context>no head</context></instance>\n</lexelt></corpus>\n`),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("alert").and(page.locator(".notice"))).toHaveText(/broken\.xml:3: .*instance "7" has no <head>.*nothing was imported/);
  await page.reload();
  await expect(page.getByText(/No lexelts yet|0 instances/).first()).toBeVisible();
});

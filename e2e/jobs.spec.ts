import os from "node:os";
import path from "node:path";
import { writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

/** A lexelt XML file of `lexelts` × `per` instances (written here, never committed). */
function bigCorpus(lexelts: number, per: number): string {
  const out = ['<?xml version="1.0"?>', '<corpus lang="english">'];
  for (let l = 0; l < lexelts; l++) {
    out.push(`<lexelt item="term${l}.n">`);
    for (let i = 0; i < per; i++) {
      out.push(`<instance id="t${l}.${i}"><context>Sentence ${i} of a generated file, with the <head>term${l}</head> in its middle and a few words after it.</context></instance>`);
    }
    out.push("</lexelt>");
  }
  out.push("</corpus>", "");
  return out.join("\n");
}

test("a large import runs as a job: a progress bar with counts, the page can be left, the report when done", async ({ page }) => {
  const shots = process.env.E2E_SHOTS_DIR;
  await signIn(page, "coordinator");
  await page.goto("/projects");
  const name = `jobs ${Date.now()}`;
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const projectUrl = page.url();

  const file = path.join(os.tmpdir(), `lexgold-e2e-big-${Date.now()}.xml`);
  writeFileSync(file, bigCorpus(400, 100));
  await page.getByLabel("Lexelt XML file").setInputFiles(file);
  await page.getByRole("button", { name: "Import" }).click();

  // The job is followed on the page: a progress bar named after the file, its counts, a way to cancel.
  const bar = page.getByRole("progressbar", { name: /Importing lexgold-e2e-big-\d+\.xml/ });
  await expect(bar).toBeVisible();
  await expect(page.getByRole("status")).toContainText(/Importing lexgold-e2e-big-\d+\.xml/);
  await expect(page.getByRole("button", { name: "Cancel" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(/of 40,000 instances written/, { timeout: 120_000 });
  if (shots) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: path.join(shots, "import-job-1440.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(shots, "import-job-390.png"), fullPage: true });
  }

  // Leaving the page does not stop the job; coming back shows it (running or done).
  await page.goto("/projects");
  await page.goto(projectUrl);
  await expect(page.getByRole("status")).toHaveText(/40000 instances in 400 lexelts; added 40000 instances and 400 lexelts/, { timeout: 120_000 });
  await expect(page.getByText("400 lexelts · 40000 instances")).toBeVisible();
  if (shots) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: path.join(shots, "import-done-1440.png") });
  }
});

test("a cancelled import writes nothing", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto("/projects");
  const name = `cancel ${Date.now()}`;
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const file = path.join(os.tmpdir(), `lexgold-e2e-cancel-${Date.now()}.xml`);
  writeFileSync(file, bigCorpus(600, 100));
  await page.getByLabel("Lexelt XML file").setInputFiles(file);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("progressbar")).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("alert").and(page.locator(".notice"))).toHaveText(/Cancel+ed.*nothing was imported/, { timeout: 120_000 });
  await page.reload();
  await expect(page.getByText("No lexelts yet")).toBeVisible();
});

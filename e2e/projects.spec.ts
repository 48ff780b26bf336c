/**
 * A project's life on its overview page: renamed, archived (listed apart, with a
 * notice), brought back, and deleted after the confirmation page has said what
 * goes and had the name typed. Works on a project of its own, never the demo.
 */
import { expect, test } from "@playwright/test";
import { openDemo, signIn } from "./helpers";

// Screenshots only when asked (SCREENSHOT_DIR), so a test run never rewrites tracked files.
const shots = process.env.SCREENSHOT_DIR;

test("the coordinator renames, archives, brings back and deletes a project", async ({ page }) => {
  await signIn(page, "coordinator");
  await page.goto("/projects");
  const name = `lifecycle ${Date.now()}`;
  await page.getByLabel("Project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);

  const renamed = `${name} renamed`;
  await page.getByLabel("Name", { exact: true }).fill(renamed);
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Renamed to" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(renamed);
  // A taken name is refused beside the field.
  await page.getByLabel("Name", { exact: true }).fill("demo");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByText("That name is taken.")).toBeVisible();
  if (shots) {
    await page.locator("#project-heading").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/project-settings.png` });
  }

  await page.getByRole("button", { name: "Archive project" }).click();
  await expect(page.getByText(/^Archived on \d{4}-\d\d-\d\d: annotators do not see this project/)).toBeVisible();
  await page.goto("/projects");
  await expect(page.getByRole("list", { name: "Archived projects" }).getByRole("link", { name: new RegExp(renamed) })).toBeVisible();
  await expect(page.getByRole("list", { name: "Your projects" }).getByRole("link", { name: new RegExp(renamed) })).toHaveCount(0);
  if (shots) await page.screenshot({ path: `${shots}/projects-archived.png`, fullPage: true });
  await page.getByRole("link", { name: new RegExp(renamed) }).click();
  await page.getByRole("button", { name: "Bring back from the archive" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Back from the archive" })).toBeVisible();
  await expect(page.getByText(/^Archived on/)).toHaveCount(0);

  await page.getByRole("link", { name: "Delete project…" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Delete “${renamed}”?`);
  await expect(page.getByText("0 lexelts with 0 instances")).toBeVisible();
  await expect(page.getByText(/Make a backup first/)).toBeVisible();
  const del = page.getByRole("button", { name: "Delete this project" });
  await expect(del).toBeDisabled();
  await page.getByLabel(/Type the project’s name/).fill(renamed.toUpperCase());
  await expect(del).toBeDisabled();
  if (shots) {
    await page.screenshot({ path: `${shots}/project-delete.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/project-delete-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  await page.getByLabel(/Type the project’s name/).fill(renamed);
  await del.click();
  await expect(page).toHaveURL(/\/projects\?deleted=/);
  await expect(page.getByRole("status")).toHaveText(`Deleted the project “${renamed}”.`);
  await expect(page.getByRole("link", { name: new RegExp(renamed) })).toHaveCount(0);
});

test("a coordinator outside a project is told whom to ask, and nothing else of it (still a 404)", async ({ page }) => {
  await signIn(page, "coordinator");
  const demo = await openDemo(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);

  // sealed-coord coordinates "sealed" only.
  await signIn(page, "sealed-coord");
  for (const path of [`/projects/${demo}`, `/projects/${demo}/gold`]) {
    const res = await page.goto(path);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not a member of this project");
    await expect(page.getByRole("status")).toContainText("Ask its coordinator, coordinator, to add you");
    // Nothing of the project: not its name, its lexelts or its tabs.
    await expect(page.getByRole("navigation", { name: "Project" })).toHaveCount(0);
    await expect(page.locator("main")).not.toContainText(/demo|quiet\.a/);
  }
  if (shots) {
    await page.screenshot({ path: `${shots}/not-a-member.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/not-a-member-390.png`, fullPage: true });
  }
  // A project that does not exist is the plain 404.
  expect((await page.goto("/projects/999999"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not found");
});

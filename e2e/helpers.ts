import fs from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { type Download, type Page, expect } from "@playwright/test";

export const DEMO_PASSWORD = "lexgold-demo";
/** The password e2e/serve.sh gives the "sealed" project's accounts (the demo password is the demo's only). */
const SEALED_PASSWORD = "sealed-otter-lantern";

/** The password of a seeded account: the demo's, or the sealed project's. */
export function passwordOf(name: string): string {
  return name.startsWith("sealed-") ? SEALED_PASSWORD : DEMO_PASSWORD;
}

export async function signIn(page: Page, name: string, password = passwordOf(name)) {
  await page.goto("/signin");
  await page.getByLabel("User name").fill(name);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

/** From the projects list into the demo project's overview; its id. */
export async function openDemo(page: Page): Promise<number> {
  await page.goto("/projects");
  await page.getByRole("link", { name: /^demo/ }).first().click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  return Number(/\/projects\/(\d+)/.exec(page.url())![1]);
}

/** The demo project's tab `tab` through the project navigation, checked by its level-1 heading (the tab's name unless given); the project's id. */
export async function openDemoTab(page: Page, tab: string, heading: string | RegExp = tab): Promise<number> {
  const id = await openDemo(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: tab }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  return id;
}

/** Click the link named `link` and read the file it downloads. */
export async function downloadText(page: Page, link: RegExp): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: link }).click();
  const d: Download = await downloading;
  return { name: d.suggestedFilename(), text: await readFile((await d.path())!, "utf8") };
}

/** Full-page screenshots at 1440 and 390 px wide into `dir` (nothing without one), the viewport put back afterwards. */
export async function shootWideAndNarrow(page: Page, dir: string | undefined, name: string): Promise<void> {
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

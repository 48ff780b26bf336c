import { type Page, expect } from "@playwright/test";

export const DEMO_PASSWORD = "lexgold-demo";

export async function signIn(page: Page, name: string, password = DEMO_PASSWORD) {
  await page.goto("/signin");
  await page.getByLabel("User name").fill(name);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

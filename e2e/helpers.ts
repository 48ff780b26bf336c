import { type Page, expect } from "@playwright/test";

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

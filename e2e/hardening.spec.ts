/**
 * Issue #13 over HTTP against the production build: a sign-in no stranger can
 * lock, sessions that really end, accounts managed in the app, exports safe to
 * open in a spreadsheet, and a Content-Security-Policy the app runs under.
 *
 * All requests come from 127.0.0.1: whatever X-Forwarded-For a client writes,
 * the server counts the socket's address (no trusted proxy is configured).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Browser, type Page, expect, test } from "@playwright/test";
import { signIn } from "./helpers";

test.describe.configure({ mode: "serial" });

const demoXml = path.resolve(import.meta.dirname, "../samples/demo.xml");
const stamp = Date.now().toString(36);
const projectName = `hardening ${stamp}`;
const user = `dev-${stamp}`;
let projectId = 0;
let password = "";
let base = "";
/** The user's own browser: it keeps its device cookie from test to test. */
let own: Page;

/** Sign in as the sign-in form does; returns next-auth's answer (its url names the error, if any). */
async function signInApi(ctx: APIRequestContext, name: string, pass: string, headers: Record<string, string> = {}): Promise<string> {
  const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const r = await ctx.post("/api/auth/callback/credentials", { form: { username: name, password: pass, csrfToken, json: "true" }, headers });
  return ((await r.json()) as { url: string }).url;
}

async function signInForm(page: Page, name: string, pass: string) {
  await page.goto("/signin");
  await page.getByLabel("User name").fill(name);
  await page.getByLabel("Password").fill(pass);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
}

/** A page in a browser of its own (its own cookies: the user's own browser). */
async function ownBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: base });
  return context.newPage();
}

test.beforeAll(async ({ browser }, info) => {
  base = info.project.use.baseURL!;
  // The coordinator makes a project of their own and an annotator in it (the password shown once).
  const page = await ownBrowser(browser);
  await signIn(page, "coordinator");
  await page.goto("/projects");
  await page.getByLabel("Project name").fill(projectName);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(projectName);
  projectId = Number(/\/projects\/(\d+)/.exec(page.url())![1]);
  await page.getByLabel("Lexelt XML file").setInputFiles(demoXml);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(/40 instances in 9 lexelts/);
  await page.goto(`/projects/${projectId}/members`);
  await page.getByLabel("User name").fill(user);
  await page.getByRole("button", { name: "Create and add" }).click();
  password = (await page.getByRole("status").filter({ hasText: "Initial password for" }).locator("code").textContent())!.trim();
  expect(password).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  await page.context().close();
  own = await ownBrowser(browser);
});

test.afterAll(async () => {
  await own?.context().close();
});

test("finding 1: after six failed sign-ins by strangers (made-up names, with and without X-Forwarded-For), the coordinator still signs in", async ({ page, playwright }) => {
  const stranger = await playwright.request.newContext({ baseURL: base });
  for (let i = 0; i < 6; i++) {
    const headers: Record<string, string> = i % 2 ? { "X-Forwarded-For": `198.51.100.${i}` } : {};
    expect(await signInApi(stranger, `nobody-${stamp}-${i}`, "whatever-it-is", headers)).toMatch(/error=CredentialsSignin/);
  }
  await stranger.dispose();
  await signIn(page, "coordinator");
});

test("finding 2: after a stranger's failed sign-ins as a user, that user's own browser (device cookie) still signs in", async ({ browser, playwright }) => {
  await signInForm(own, user, password);
  await expect(own.getByRole("button", { name: "Sign out" })).toBeVisible();
  const device = (await own.context().cookies()).find((c) => c.name === "lexgold-device");
  expect(device, "the device cookie").toBeDefined();
  expect(device).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/api/auth" });
  await signOut(own);

  const stranger = await playwright.request.newContext({ baseURL: base });
  const answers: string[] = [];
  // Five free failures, then each further check waits 1 s, 2 s, 4 s … after the last failure: the
  // stranger's next tries come within a wait and are refused unchecked (whatever X-Forwarded-For says).
  for (let i = 0; i < 20 && !answers.some((u) => /error=RateLimited/.test(u)); i++) {
    answers.push(await signInApi(stranger, user, `guess-${i}-wrong`, { "X-Forwarded-For": `203.0.113.${i + 1}` }));
  }
  expect(answers.slice(0, 5).every((u) => /error=CredentialsSignin/.test(u))).toBe(true);
  expect(answers.at(-1)).toMatch(/error=RateLimited/);
  await stranger.dispose();
  // … the user's own browser is not.
  await signInForm(own, user, password);
  await expect(own.getByRole("button", { name: "Sign out" })).toBeVisible();

  // The coordinator sees the failed attempts, from the socket's address (not the forged header).
  const coord = await ownBrowser(browser);
  await signIn(coord, "coordinator");
  await coord.goto("/accounts");
  const failures = coord.getByRole("table", { name: "Failed sign-ins" });
  const rows = failures.getByRole("row").filter({ hasText: user });
  await expect(rows).toHaveCount(answers.length);
  await expect(rows.filter({ hasText: "127.0.0.1" })).toHaveCount(answers.length);
  await expect(failures).not.toContainText("203.0.113.");
  await expect(rows.filter({ hasText: "refused: too many failures" })).toHaveCount(1);
  // The account is listed as slowed down, with a lift for the coordinator.
  await expect(coord.getByRole("button", { name: `Lift the sign-in lock of ${user}` })).toBeVisible();
  await coord.context().close();
});

test("finding 4: a cookie kept from before sign-out opens no page and no route", async ({ playwright }) => {
  // Signed in since the test above.
  await own.goto("/annotate");
  await expect(own.getByRole("button", { name: "Sign out" })).toBeVisible();
  const kept = await own.context().storageState();
  await signOut(own);

  const thief = await playwright.request.newContext({ baseURL: base, storageState: kept });
  for (const p of ["/annotate", `/annotate/${projectId}`, "/account", "/"]) {
    const r = await thief.get(p, { maxRedirects: 0 });
    expect(r.status(), p).toBe(307);
    expect(new URL(r.headers().location!, base).pathname, p).toBe("/signin");
  }
  expect((await thief.get(`/api/projects/${projectId}/responses`)).status()).toBe(401);
  await thief.dispose();
});

test("finding 5: formula-like answers are refused by a strict import (the answer rules), kept as written and marked otherwise, and the export is safe and reads back unchanged", async ({ page }) => {
  await signIn(page, "coordinator");
  // A responses upload is previewed first and applied only with the preview's token.
  const okFile = { name: "ok.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(`annotator\tlexelt\tinstance\tanswer\tmultiword\n${user}\tquiet.a\td1\tsilent;calm\t\n`) };
  const preview = await page.request.post(`/api/projects/${projectId}/responses`, { headers: { Origin: base }, multipart: { file: okFile } });
  expect(preview.status(), await preview.text()).toBe(200);
  const { token } = ((await preview.json()) as { preview: { token: string } }).preview;
  const ok = await page.request.post(`/api/projects/${projectId}/responses?wait=1`, { headers: { Origin: base }, multipart: { file: okFile, mode: "confirm", token } });
  expect(ok.status(), await ok.text()).toBe(200);
  const before = await (await page.request.get(`/api/projects/${projectId}/responses`)).text();
  expect(before).toContain(`${user}\tquiet.a\td1\tsilent;calm`);
  // A substitute must start with a letter or digit: formula-like cells never get in (and old ones go out neutralised: test/lexsub/spreadsheet.test.ts).
  // An import of answers given elsewhere keeps them as written, marked with the rule they break
  // (the preview says so); --strict (the Strict box) refuses them as the workspace does.
  const line = `${user}\tquiet.a\td1\t=HYPERLINK("http://evil.example","x");+sum\t@home run`;
  const badFile = { name: "r.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(`annotator\tlexelt\tinstance\tanswer\tmultiword\n${line}\n`) };
  const refused = await page.request.post(`/api/projects/${projectId}/responses`, { headers: { Origin: base }, multipart: { file: badFile, strict: "on" } });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toMatch(/r\.tsv:2/);
  const kept = await page.request.post(`/api/projects/${projectId}/responses`, { headers: { Origin: base }, multipart: { file: badFile } });
  expect(kept.status(), await kept.text()).toBe(200);
  expect(await kept.text()).toMatch(/kept|break/i);
  const tsv = await (await page.request.get(`/api/projects/${projectId}/responses`)).text();
  expect(tsv).toBe(before);
  for (const cell of tsv.split(/[\t\n]/)) expect(cell).not.toMatch(/^[=+\-@]/);
  // Importing the export again changes nothing.
  const again = await page.request.post(`/api/projects/${projectId}/responses`, {
    headers: { Origin: base },
    multipart: { file: { name: "export.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(tsv) } },
  });
  expect(again.status(), await again.text()).toBe(200);
  expect(await (await page.request.get(`/api/projects/${projectId}/responses`)).text()).toBe(tsv);
});

test("accounts in the app: reset (shown once), own password change, disable and re-enable, removal — each ends the sessions and is audited", async ({ browser }) => {
  // Strangers locked this account for unknown browsers (finding 2 above): the user's own browser signs in.
  await signInForm(own, user, password);
  await expect(own.getByRole("button", { name: "Sign out" })).toBeVisible();
  const signedOut = async () => {
    await own.goto("/annotate");
    await expect(own).toHaveURL(/\/signin/);
  };

  const coord = await ownBrowser(browser);
  await signIn(coord, "coordinator");
  await coord.goto("/accounts");
  const row = coord
    .getByRole("table", { name: /^Accounts/ })
    .getByRole("row")
    .filter({ has: coord.getByRole("rowheader", { name: user, exact: true }) });
  // Another project's coordinator is not listed among the accounts to manage.
  await expect(coord.getByRole("rowheader", { name: "sealed-coord", exact: true })).toHaveCount(0);

  // Reset: a new password shown once; the old one stops working and the session ends.
  coord.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: `Reset password of ${user}` }).click();
  const shown = row.getByRole("status").filter({ hasText: "New password for" });
  await expect(shown).toBeVisible();
  const reset = (await shown.locator("code").textContent())!.trim();
  expect(reset).not.toBe(password);
  await signedOut();
  await signInForm(own, user, reset);
  await expect(own.getByRole("button", { name: "Sign out" })).toBeVisible();

  // The user changes their own password: a weak one is refused; then every session ends.
  await own.goto("/account");
  await own.getByLabel("Current password").fill(reset);
  await own.getByLabel("New password", { exact: true }).fill("aaaaaaaaaaaa");
  await own.getByLabel("New password again").fill("aaaaaaaaaaaa");
  await own.getByRole("button", { name: "Change password" }).click();
  await expect(own.getByText("A password cannot be one character repeated.")).toBeVisible();
  const mine = `my-own-${stamp}-pass`;
  await own.getByLabel("New password", { exact: true }).fill(mine);
  await own.getByLabel("New password again").fill(mine);
  await own.getByRole("button", { name: "Change password" }).click();
  await expect(own.getByRole("status")).toContainText("Password changed");
  await signedOut();
  await signInForm(own, user, mine);
  await expect(own.getByRole("button", { name: "Sign out" })).toBeVisible();

  // Disable: signed out at once, and refused at sign-in; re-enable: back in.
  await coord.reload();
  coord.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: `Disable ${user}` }).click();
  await expect(row).toContainText("disabled");
  await signedOut();
  await signInForm(own, user, mine);
  await expect(own.getByRole("alert").and(own.locator(".notice"))).toHaveText("That user name and password do not match.");
  await row.getByRole("button", { name: `Enable ${user}` }).click();
  await expect(row).toContainText("active");
  await signInForm(own, user, mine);
  await expect(own.getByRole("button", { name: "Sign out" })).toBeVisible();

  // Each change is in the audit, with who made it.
  const audited = async (changes: string[]) => {
    await coord.goto("/accounts");
    const audit = coord.getByRole("table", { name: "Account changes" });
    for (const change of changes) {
      await expect(audit.getByRole("row").filter({ hasText: user }).filter({ hasText: change }).first(), change).toBeVisible();
    }
  };
  await audited(["reset password", "changed own password", "disabled", "re-enabled"]);
  if (process.env.E2E_SCREENSHOTS) {
    await own.goto("/account");
    for (const [p, name] of [[coord, "accounts"], [own, "account"]] as const) {
      for (const width of [1440, 390]) {
        await p.setViewportSize({ width, height: 900 });
        await p.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
      }
      await p.setViewportSize({ width: 1280, height: 720 });
    }
  }

  // Removal from the project (Team tab): the session ends; the account stays.
  await coord.goto(`/projects/${projectId}/members`);
  coord.once("dialog", (d) => void d.accept());
  await coord.getByRole("button", { name: `Remove ${user}` }).click();
  await expect(coord.getByRole("table", { name: "Members" }).getByRole("rowheader", { name: user, exact: true })).toHaveCount(0);
  await signedOut();
  await audited([`removed from project (${projectName})`]);
  await coord.context().close();
});

test("finding 9: pages carry a Content-Security-Policy with a fresh nonce, every script has it, and the app still works", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load)/i.test(m.text())) violations.push(m.text());
  });
  const first = await page.goto("/signin");
  const csp = first!.headers()["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).toMatch(/frame-ancestors 'none'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  const second = await page.request.get("/signin");
  expect(second.headers()["content-security-policy"]).not.toContain(nonce);
  const scripts = await page.evaluate(() => [...document.scripts].map((s) => s.nonce));
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.every((n) => n === nonce)).toBe(true);
  // Hydrated under the policy: the sign-in form works, and so does a page full of client components.
  await signIn(page, "coordinator");
  await page.goto(`/projects/${projectId}/members`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Team");
  expect(violations).toEqual([]);
});

test("a stranger's X-Forwarded-Host does not pass the upload routes' origin check", async ({ page }) => {
  await signIn(page, "coordinator");
  const res = await page.request.post(`/api/projects/${projectId}/import`, {
    headers: { Origin: "http://evil.example", "X-Forwarded-Host": "evil.example", Host: "evil.example" },
    multipart: { file: { name: "x.xml", mimeType: "application/xml", buffer: readFileSync(demoXml) } },
  });
  expect(res.status()).toBe(403);
});

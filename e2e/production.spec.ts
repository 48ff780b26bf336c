/**
 * Running lexgold for a study, from nothing: `lexgold init` and the production
 * start (`bin/lexgold start`, what `npm start` runs) on a spare loopback port,
 * a real server process of its own (not the demo server the other specs use).
 * The created coordinator signs in over HTTP and in the browser; there is no
 * demo project and no demo account. Starting without init fails with the
 * reasons. Uses the build the e2e run made (NEXT_DIST_DIR, .next-e2e).
 */
import { type ChildProcess, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signIn as signInOverHttp } from "../bench/lib/auth";
import { DEMO_PASSWORD } from "./helpers";
import { spareLoopbackPort, startServer, stopServer } from "./server-process";

const bin = path.resolve(import.meta.dirname, "../bin/lexgold");
const PASSWORD = "Study-coordinator-2026";

function siteEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || ".next-e2e",
    LEXGOLD_DB: path.join(dir, "study.db"),
    LEXGOLD_SECRET_FILE: path.join(dir, "secret"),
    LEXGOLD_BCRYPT_COST: "4",
  };
  for (const k of ["NEXTAUTH_URL", "LEXGOLD_PUBLIC_URL", "NEXTAUTH_SECRET", "LEXGOLD_HOST", "PORT"]) delete env[k];
  return env;
}

let server: ChildProcess | null = null;
const dirs: string[] = [];
const newDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-prod-"));
  dirs.push(d);
  return d;
};

test.afterAll(async () => {
  await stopServer(server);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

test("starting without init fails, naming what is missing", async () => {
  const dir = newDir();
  const port = await spareLoopbackPort();
  const r = spawnSync(bin, ["start", "--port", String(port)], { env: siteEnv(dir), encoding: "utf8", timeout: 60_000 });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain("lexgold: cannot start:");
  expect(r.stderr).toContain(`no database at ${path.join(dir, "study.db")}: create it with \`lexgold init NAME\``);
  expect(r.stderr).toContain(`no session secret at ${path.join(dir, "secret")}`);
  // Nothing listens on the port.
  const answered = await fetch(`http://127.0.0.1:${port}/signin`).then(
    () => true,
    () => false,
  );
  expect(answered).toBe(false);
});

test("init, then the production start: the coordinator signs in, and there is no demo data", async ({ page }) => {
  test.setTimeout(300_000);
  const dir = newDir();
  const env = siteEnv(dir);
  const init = spawnSync(bin, ["init", "study-lead"], { env, input: `${PASSWORD}\n`, encoding: "utf8", timeout: 60_000 });
  expect(init.status, init.stderr).toBe(0);

  const port = await spareLoopbackPort();
  const base = `http://127.0.0.1:${port}`;
  const started = await startServer(bin, ["start", "--port", String(port)], base, { env });
  server = started.child;
  const out = started.output();
  expect(out).toContain(`lexgold: database ${path.join(dir, "study.db")} (1 account, 0 projects)`);
  expect(out).toContain(`lexgold: serving ${base} (listening on 127.0.0.1:${port})`);

  // Over HTTP, the way next-auth's credentials flow works.
  const cookie = await signInOverHttp(base, "study-lead", PASSWORD);
  const session = (await (await fetch(`${base}/api/auth/session`, { headers: { Cookie: cookie } })).json()) as { user?: { name?: string; role?: string } };
  expect(session.user).toMatchObject({ name: "study-lead", role: "coordinator" });
  const projects = await (await fetch(`${base}/projects`, { headers: { Cookie: cookie } })).text();
  expect(projects).toContain("No projects yet.");
  expect(projects).not.toMatch(/>demo</);
  // None of the quick start's accounts exists.
  for (const name of ["coordinator", "annotator1"]) {
    await expect(signInOverHttp(base, name, DEMO_PASSWORD)).rejects.toThrow(/no session cookie/);
  }

  // And in the browser.
  await page.goto(`${base}/signin`);
  await page.getByLabel("User name").fill("study-lead");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await expect(page.getByText("No projects yet.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Your projects" })).toHaveCount(0);

  // SIGTERM (systemd's stop) reaches the server: the process and the port close.
  const code = await stopServer(server);
  expect(code, "the server exits by itself on SIGTERM, not killed by it").not.toBe(null);
  const after = await fetch(`${base}/signin`).then(
    () => true,
    () => false,
  );
  expect(after).toBe(false);
});

/**
 * A Mechanical Turk study without a completion code (issue #38), in the browser, on a server and
 * database of the spec's own (the demo project from the CLI, the study opened by `study create`):
 *
 * - a worker arrives as Mechanical Turk sends them (workerId, assignmentId, hitId, turkSubmitTo),
 *   starts, sees their resume code first, answers their batch from the keyboard, and the end
 *   screen posts the assignment to Mechanical Turk's externalSubmit by itself — with no code, as
 *   the study has none (the sandbox's address is answered inside the browser: no network);
 * - another browser with the worker's id under another assignment is told the id is taking part
 *   and signs in no one; with the resume code it resumes as them.
 *
 * SCREENSHOT_DIR: screenshots wide and narrow.
 */
import { type ChildProcess, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { type Page, expect, test } from "@playwright/test";
import { shootWideAndNarrow } from "./helpers";
import { spareLoopbackPort, startServer, stopServer } from "./server-process";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin", "lexgold");
const SHOTS = process.env.SCREENSHOT_DIR;
const SANDBOX = "https://workersandbox.mturk.com";

let server: ChildProcess | null = null;
let dir = "";
let base = "";
let dbFile = "";
let link = "";

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-mturk-e2e-"));
  dbFile = path.join(dir, "study.db");
  const port = await spareLoopbackPort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || ".next-e2e",
    LEXGOLD_DB: dbFile,
    LEXGOLD_SECRET_FILE: path.join(dir, "secret"),
    LEXGOLD_BCRYPT_COST: "4",
    LEXGOLD_WORKERS: "1",
    NEXTAUTH_URL: base,
  };
  const cli = (args: string[]) => {
    const r = spawnSync(bin, args, { env, encoding: "utf8", cwd: root, timeout: 120_000 });
    expect(r.status, `${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };
  cli(["demo"]);
  // No completion code: the assignment must reach Mechanical Turk all the same.
  const out = cli(["study", "create", "--project", "demo", "--platform", "mturk", "--batch", "2", "--overlap", "1", "--minutes", "30", "--name", "wave m", "--origin", base]);
  link = out.trim().split("\n").pop()!;
  expect(link).toMatch(new RegExp(`^${base}/study/[A-Za-z0-9_-]+$`));
  server = (await startServer(process.execPath, ["scripts/serve.mjs", "-p", String(port), "-H", "127.0.0.1"], base, { env, cwd: root })).child;
});

test.afterAll(async () => {
  await stopServer(server);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const shoot = (page: Page, name: string) => shootWideAndNarrow(page, SHOTS, name);

const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const WORKER = "A2E2EWORKER7";
const arrival = (assignment: string) => `${link}?workerId=${WORKER}&assignmentId=${assignment}&hitId=3E2EHIT&turkSubmitTo=${encodeURIComponent(SANDBOX)}`;

function batchOf(): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (
      db
        .prepare(
          `select i.instance_id as id from batch_items b join participants p on p.id = b.participant_id join instances i on i.id = b.instance_ref
           where p.platform_id = ? and b.released_at is null order by b.position`,
        )
        .all(WORKER) as { id: string }[]
    ).map((r) => r.id);
  } finally {
    db.close();
  }
}

test("Mechanical Turk without a completion code: the assignment is submitted; the worker id alone signs in no one", async ({ browser }) => {
  test.setTimeout(300_000);
  // Mechanical Turk's sandbox, answered in each browser: what the end screen posts.
  const posted: string[] = [];
  const newBrowser = async () => {
    const context = await browser.newContext();
    await context.route(`${SANDBOX}/**`, async (route) => {
      posted.push(`${route.request().method()} ${route.request().url()} ${route.request().postData() ?? ""}`);
      await route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Mechanical Turk</title><h1>Submitted to Mechanical Turk</h1>" });
    });
    return context.newPage();
  };
  const page = await newBrowser();
  await page.goto(arrival("3E2EASSIGN1"));
  await expect(heading(page)).toHaveText("wave m");
  await page.getByRole("button", { name: "Start", exact: true }).click();
  const code = page.getByTestId("resume-code");
  await expect(code).toHaveText(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  const resumeCode = (await code.textContent())!;
  await shoot(page, "mturk-resume-code");
  await page.getByRole("link", { name: "Continue to the study" }).click();

  // The batch of two, from the keyboard.
  for (const id of batchOf()) {
    await expect(heading(page)).toContainText(`instance ${id} `);
    await expect(page.getByLabel("Substitute 1")).toBeFocused();
    await page.keyboard.type("fine");
    await page.keyboard.press("Enter");
  }
  // The end screen sends the assignment by itself: the id and what happened, no code (the study has none).
  await expect(heading(page)).toHaveText("Submitted to Mechanical Turk");
  expect(posted).toEqual([`POST ${SANDBOX}/mturk/externalSubmit assignmentId=3E2EASSIGN1&status=completed`]);

  // Someone else with the worker's id, under another assignment, in another browser: refused.
  const other = await newBrowser();
  await other.goto(arrival("3E2EASSIGN2"));
  await other.getByRole("button", { name: "Start", exact: true }).click();
  await expect(other.getByRole("alert").filter({ hasText: /\S/ })).toHaveText(
    "This worker id is already taking part in this study from another browser. To continue here, enter the resume code you were shown when you started.",
  );
  expect(await (await other.request.get(`${base}/api/auth/session`)).json()).toEqual({});
  await shoot(other, "mturk-taken");
  // With the resume code: it is them, at their end screen, which sends the assignment they started with.
  await other.getByLabel("Resume code").fill(resumeCode);
  await other.getByRole("button", { name: "Start", exact: true }).click();
  await expect(heading(other)).toHaveText("Submitted to Mechanical Turk");
  expect(posted).toHaveLength(2);
  expect(posted[1]).toBe(`POST ${SANDBOX}/mturk/externalSubmit assignmentId=3E2EASSIGN1&status=completed`);
  expect(await (await other.request.get(`${base}/api/auth/session`)).json()).toMatchObject({ user: { role: "participant", name: expect.stringMatching(new RegExp(`^mturk:\\d+:${WORKER}$`)) } });
});

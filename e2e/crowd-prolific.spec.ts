/**
 * A Prolific study from the first participant to the payment files (issue #32), in the browser,
 * on a server and database of the spec's own (the demo project from the CLI; the project's
 * training set in its database before the study opens):
 *
 * - the coordinator opens the study on the Crowd tab (batch 3, overlap 2) and copies its link;
 * - participants arrive by that link with Prolific's parameters, each in a browser of their own:
 *   one fails the training and gets the screen-out code; two pass it, answer their batch from
 *   the keyboard and get the completion code and the way back to Prolific;
 * - one more abandons after one item; when their batch's time has run out (the clock moved by
 *   writing their batch's start back), a fourth participant arrives and is given the released items;
 * - the coordinator approves one, rejects one with a reason, downloads the payment files, and
 *   leaves the rejected participant's answers out of the gold;
 * - each participant's first screen after the start shows their resume code (issue #38); a second
 *   browser with one's PROLIFIC_PID but no cookie and another SESSION_ID is told the id is taking
 *   part and signs in no one; with the resume code it resumes as them.
 *
 * SCREENSHOT_DIR: screenshots wide and narrow.
 */
import { type ChildProcess, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { type Browser, type Page, expect, test } from "@playwright/test";
import { DEMO_PASSWORD, downloadText, shootWideAndNarrow } from "./helpers";
import { spareLoopbackPort, startServer, stopServer } from "./server-process";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin", "lexgold");
const SHOTS = process.env.SCREENSHOT_DIR;

const COMPLETE = "C0MPL3TE";
const SCREEN_OUT = "SCR33N0UT";
/** Prolific's ids: 24 hexadecimal digits. */
const PID = {
  fails: "64a000000000000000000001",
  approved: "64a000000000000000000002",
  rejected: "64a000000000000000000003",
  abandons: "64a000000000000000000004",
  late: "64a000000000000000000005",
};
/** What the rejected participant answers to every sentence (no demo annotator gives it). */
const ODD = "xylophone";

let server: ChildProcess | null = null;
let dir = "";
let base = "";
let dbFile = "";
let projectId = 0;
let link = "";

function env(port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || ".next-e2e",
    LEXGOLD_DB: dbFile,
    LEXGOLD_SECRET_FILE: path.join(dir, "secret"),
    LEXGOLD_BCRYPT_COST: "4",
    LEXGOLD_WORKERS: "1",
    // Every participant arrives from this machine's one address.
    LEXGOLD_ADDRESS_JOIN_RATE: "off",
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
  };
}

function sql<T>(query: string, ...params: unknown[]): T {
  const db = new Database(dbFile);
  try {
    db.pragma("busy_timeout = 5000");
    const st = db.prepare(query);
    return (st.reader ? st.all(...params) : st.run(...params)) as T;
  } finally {
    db.close();
  }
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-prolific-e2e-"));
  dbFile = path.join(dir, "study.db");
  const port = await spareLoopbackPort();
  base = `http://127.0.0.1:${port}`;
  const e = env(port);
  const r = spawnSync(bin, ["demo"], { env: e, encoding: "utf8", cwd: root, timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  projectId = sql<{ id: number }[]>("select id from projects where name = 'demo'")[0].id;
  // The project's training: one item ("The library was quiet …"), a pass needs it right.
  const d1 = sql<{ id: number }[]>("select id from instances where project_id = ? and instance_id = 'd1'", projectId)[0].id;
  sql("insert into known_answers (project_id, instance_ref, role, accepted, set_at) values (?, ?, 'training', ?, ?)", projectId, d1, JSON.stringify(["silent", "calm"]), Date.now());
  sql("update projects set training_required = 1, training_threshold = 100 where id = ?", projectId);
  server = (await startServer(process.execPath, ["scripts/serve.mjs", "-p", String(port), "-H", "127.0.0.1"], base, { env: e, cwd: root })).child;
});

test.afterAll(async () => {
  await stopServer(server);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const shoot = (page: Page, name: string) => shootWideAndNarrow(page, SHOTS, name);

const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const sub = (page: Page, n: number) => page.getByLabel(`Substitute ${n}`);

/** The link as Prolific fills it for one participant (their own SESSION_ID unless another is given). */
function arrival(pid: string, session = `64c0000000000000000${pid.slice(-5)}`): string {
  return link.replace("{{%PROLIFIC_PID%}}", pid).replace("{{%STUDY_ID%}}", "64b00000000000000000000a").replace("{{%SESSION_ID%}}", session);
}

/** Each participant's resume code, as their first screen showed it. */
const codes = new Map<string, string>();
const RESUME_CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** A participant's own browser, at the study's page, having agreed and started, past the resume code. */
async function arrive(browser: Browser, pid: string, shots = false): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(arrival(pid));
  await expect(heading(page)).toHaveText("wave 1");
  await expect(page.getByRole("region", { name: "Consent" })).toContainText("You agree to take part");
  if (shots) await shoot(page, "prolific-study-page");
  await page.getByRole("button", { name: "I agree, start" }).click();
  // Their first screen: the resume code, to keep for another device, and the way on.
  const code = page.getByTestId("resume-code");
  await expect(code).toHaveText(RESUME_CODE);
  codes.set(pid, (await code.textContent())!);
  await expect(page.getByText("Keep this resume code to continue on another device")).toBeVisible();
  const on = page.getByRole("link", { name: "Continue to the study" });
  await expect(on).toBeFocused();
  if (shots) await shoot(page, "prolific-resume-code");
  await on.click();
  // The project's training comes first.
  await expect(page).toHaveURL(new RegExp(`/annotate/${projectId}/training$`));
  return page;
}

/** The one training item, answered from the keyboard, then the score. */
async function train(page: Page, answer: string) {
  await expect(sub(page, 1)).toBeFocused();
  await page.keyboard.type(answer);
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "See your score" }).click();
}

/** The batch's instance ids, in order, as given to the participant. */
function batchOf(pid: string): string[] {
  return sql<{ id: string }[]>(
    `select i.instance_id as id from batch_items b join participants p on p.id = b.participant_id join instances i on i.id = b.instance_ref
     where p.platform_id = ? and b.released_at is null order by b.position`,
    pid,
  ).map((r) => r.id);
}

/** Answer the instance on screen with these words and move on (Enter: save and next). */
async function answer(page: Page, instanceId: string, words: string) {
  await expect(heading(page)).toContainText(`instance ${instanceId} `);
  await expect(sub(page, 1)).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(words);
  await page.keyboard.press("Enter");
}

test("a Prolific study: screen-out, completion, a released batch, review, payment files and the gold", async ({ browser }) => {
  test.setTimeout(600_000);
  // --- The coordinator opens the study on the Crowd tab.
  const coord = await (await browser.newContext({ baseURL: base, acceptDownloads: true })).newPage();
  await coord.goto("/signin");
  await coord.getByLabel("User name").fill("coordinator");
  await coord.getByLabel("Password").fill(DEMO_PASSWORD);
  await coord.getByRole("button", { name: "Sign in" }).click();
  await expect(coord.getByRole("button", { name: "Sign out" })).toBeVisible();
  await coord.goto(`/projects/${projectId}`);
  await coord.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Crowd" }).click();
  const form = coord.getByRole("form", { name: "New study" });
  await form.getByLabel("Name").fill("wave 1");
  await form.getByLabel("Platform").selectOption("prolific");
  await form.getByLabel("Batch size").fill("3");
  await form.getByLabel("Overlap").fill("2");
  await form.getByLabel("Minutes").fill("30");
  await form.getByLabel("Completion code").fill(COMPLETE);
  await form.getByLabel("Screen-out code").fill(SCREEN_OUT);
  await form.getByLabel("Consent (Markdown)").fill("You agree to take part in this study; your answers are kept without your name.");
  await form.getByRole("button").click();
  const linkBox = coord.getByRole("textbox", { name: /link/i }).first();
  await expect(linkBox).toHaveValue(/\/study\/[A-Za-z0-9_-]+\?PROLIFIC_PID=\{\{%PROLIFIC_PID%\}\}&STUDY_ID=\{\{%STUDY_ID%\}\}&SESSION_ID=\{\{%SESSION_ID%\}\}$/);
  link = (await linkBox.inputValue()).replace(/^https?:\/\/[^/]+/, base);
  await shoot(coord, "prolific-study-opened");

  // --- One fails the training: the screen-out code and Prolific's return with it.
  const fails = await arrive(browser, PID.fails, true);
  await shoot(fails, "prolific-training");
  await train(fails, "noisy");
  await expect(heading(fails)).toHaveText("Thank you for your time");
  await expect(fails.getByTestId("participant-code")).toHaveText(SCREEN_OUT);
  await expect(fails.getByRole("link", { name: "Return to Prolific" })).toHaveAttribute("href", `https://app.prolific.com/submissions/complete?cc=${SCREEN_OUT}`);
  await shoot(fails, "prolific-screened-out");
  // Their places went back: nothing of theirs is held.
  expect(batchOf(PID.fails)).toEqual([]);

  // --- Two pass and answer their batch of three from the keyboard.
  for (const [pid, words] of [
    [PID.approved, "hushed"],
    [PID.rejected, ODD],
  ] as const) {
    const page = await arrive(browser, pid);
    await train(page, "silent");
    await page.getByRole("link", { name: "Start annotating" }).click();
    const batch = batchOf(pid);
    expect(batch).toHaveLength(3);
    for (const id of batch) await answer(page, id, words);
    await expect(heading(page)).toHaveText("Thank you: your batch is complete");
    await expect(page.getByTestId("participant-code")).toHaveText(COMPLETE);
    const back = page.getByRole("link", { name: "Return to Prolific" });
    await expect(back).toHaveAttribute("href", `https://app.prolific.com/submissions/complete?cc=${COMPLETE}`);
    await expect(back).toBeFocused();
    if (pid === PID.approved) {
      await shoot(page, "prolific-complete");
      // The header names them by their Prolific ID (shortened, whole on hover), not by the account made of it.
      const header = page.getByRole("banner");
      await expect(header).toContainText("Prolific ID 64a000…0002");
      await expect(header.getByTitle(PID.approved)).toBeVisible();
      await expect(header).not.toContainText("prolific:");
      // Nothing else of the site is theirs: one link in the header, no instance outside the batch,
      // no accounts, no projects.
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav.getByRole("link")).toHaveCount(1);
      await expect(nav.getByRole("link", { name: "Your study" })).toBeVisible();
      const outside = sql<{ id: number }[]>("select id from instances where project_id = ? and instance_id = 'd40'", projectId)[0].id;
      await page.goto(`${base}/annotate/${projectId}/${outside}`);
      await expect(page.getByText("No such instance in this project.")).toBeVisible();
      for (const away of ["/accounts", "/account", "/projects", `/projects/${projectId}`, `/projects/${projectId}/crowd`]) {
        await page.goto(`${base}${away}`);
        await expect(page).toHaveURL(new RegExp(`/annotate/${projectId}(/\\d+)?$`));
      }
    }
    // Arriving again by the link resumes: the same account, no second batch, the code not shown again.
    await page.goto(arrival(pid));
    await page.getByRole("button", { name: "I agree, start" }).click();
    await expect(heading(page)).toHaveText("Thank you: your batch is complete");
    expect(batchOf(pid)).toEqual(batch);
  }

  // --- Someone else with the approved participant's PROLIFIC_PID (another browser, another SESSION_ID):
  // told the id is taking part, nobody signed in; with the participant's resume code, it is them.
  const elsewhere = await (await browser.newContext()).newPage();
  await elsewhere.goto(arrival(PID.approved, "64c00000000000000000ffff"));
  await elsewhere.getByRole("button", { name: "I agree, start" }).click();
  await expect(elsewhere.getByRole("alert").filter({ hasText: /\S/ })).toHaveText(
    "This Prolific ID is already taking part in this study from another browser. To continue here, enter the resume code you were shown when you started.",
  );
  await expect(elsewhere.getByLabel("Resume code")).toBeFocused();
  await shoot(elsewhere, "prolific-taken");
  expect((await elsewhere.context().cookies()).map((c) => c.name).filter((n) => /session-token|lexgold-participant/.test(n))).toEqual([]);
  const refused = await elsewhere.request.get(`${base}/api/auth/session`);
  expect(await refused.json()).toEqual({});
  // A wrong code: refused the same way, nothing signed in.
  await elsewhere.getByLabel("Resume code").fill("0000-0000-0000");
  await elsewhere.getByRole("button", { name: "I agree, start" }).click();
  await expect(elsewhere.getByRole("alert").filter({ hasText: /\S/ })).toHaveText("That resume code does not match this id: check it and try again.");
  // The right one, typed in small letters without dashes.
  await elsewhere.getByLabel("Resume code").fill(codes.get(PID.approved)!.toLowerCase().replace(/-/g, ""));
  await elsewhere.getByRole("button", { name: "I agree, start" }).click();
  await expect(heading(elsewhere)).toHaveText("Thank you: your batch is complete");
  await expect(elsewhere.getByRole("banner")).toContainText("Prolific ID 64a000…0002");
  await shoot(elsewhere, "prolific-resumed-elsewhere");
  expect(sql<{ n: number }[]>("select count(*) as n from participants where state = 'finished'")[0].n).toBe(2);

  // --- One abandons after one item; their time runs out.
  const abandons = await arrive(browser, PID.abandons);
  await train(abandons, "calm");
  await abandons.getByRole("link", { name: "Start annotating" }).click();
  const abandoned = batchOf(PID.abandons);
  await answer(abandons, abandoned[0], "still");
  await expect(heading(abandons)).toContainText(`instance ${abandoned[1]} `);
  await abandons.context().close();
  sql("update participants set batch_at = batch_at - 31 * 60 * 1000 where platform_id = ?", PID.abandons);

  // --- A fourth arrives and is given the released items (first: the fewest answers first).
  const late = await arrive(browser, PID.late);
  await train(late, "silent");
  await late.getByRole("link", { name: "Start annotating" }).click();
  const lateBatch = batchOf(PID.late);
  expect(lateBatch.slice(0, 2)).toEqual(abandoned.slice(1));
  await expect(heading(late)).toContainText(`instance ${lateBatch[0]} `);
  // The one who abandoned keeps their answer; their unanswered places are released.
  expect(batchOf(PID.abandons)).toEqual(abandoned.slice(0, 1));
  expect(sql<{ state: string }[]>("select state from participants where platform_id = ?", PID.abandons)[0].state).toBe("timed-out");

  // --- The coordinator reviews: approve one (with a bonus), reject one with a reason.
  await coord.reload();
  const row = (pid: string) => coord.locator(`tr[data-participant="${pid}"]`);
  await expect(row(PID.approved)).toContainText("3 / 3");
  await row(PID.approved).getByRole("button", { name: "Approve" }).click();
  await expect(coord.getByText(`Approved ${PID.approved}.`)).toBeVisible();
  await row(PID.approved).getByRole("textbox", { name: "Bonus" }).fill("0.75");
  await row(PID.approved).getByRole("button", { name: "Set" }).click();
  await expect(coord.getByText(`Bonus 0.75 for ${PID.approved}.`)).toBeVisible();
  await row(PID.rejected).getByRole("button", { name: "Reject…" }).click();
  await row(PID.rejected).getByRole("textbox", { name: "Reason (shown to the participant)" }).fill("The same word for every sentence.");
  await row(PID.rejected).getByRole("button", { name: "Reject", exact: true }).click();
  await expect(coord.getByText(`Rejected ${PID.rejected}.`)).toBeVisible();
  await shoot(coord, "prolific-review");

  // The payment files: Prolific's approve list and bonus CSV, and the full table.
  expect((await downloadText(coord, /Prolific: approved ids/)).text).toBe(`${PID.approved}\n`);
  expect((await downloadText(coord, /Prolific: bonuses/)).text).toBe(`${PID.approved},0.75\n`);
  const table = (await downloadText(coord, /All participants \(TSV\)/)).text.split("\n").filter((l) => l !== "");
  expect(table).toHaveLength(1 + 5);
  expect(table.find((l) => l.startsWith(PID.rejected))).toContain("The same word for every sentence.");

  // The gold leaves the rejected participant out, with one decision.
  const gold = async () => {
    const res = await coord.request.get(`${base}/api/projects/${projectId}/gold?file=gold`);
    expect(res.status()).toBe(200);
    return res.text();
  };
  expect(await gold()).toContain(`${ODD} 1;`);
  await coord.getByRole("button", { name: "Leave 1 rejected participant out of the gold" }).click();
  await expect(coord.getByText("Left 1 rejected participant's answers out of the gold.")).toBeVisible();
  const after = await gold();
  expect(after).not.toContain(ODD);
  expect(after).toContain("hushed 1;");
});

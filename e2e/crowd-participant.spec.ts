/**
 * A study participant's work (issue #32) in the browser: a batch of three from the keyboard,
 * in the batch's order, then the completion code with Prolific's return; nothing else of the
 * site is theirs (no accounts, no projects, no instance outside the batch); a second
 * participant fails the training and ends at the screen-out code.
 *
 * On a server of its own (e2e/serve.sh on a spare port: the demo data on a throw-away database)
 * because the participants, their study and batch are rows put into that database here, as
 * joining a study puts them. Joining by the study's link is not part of this spec: each
 * participant is given a password here and signs in through the sign-in form (next-auth's own
 * sign-in); the rest of the session is what a participant who joined has.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { type Page, expect, test } from "@playwright/test";
import { type ServerProcess, spareLoopbackPort, startServer, stopServer } from "./server-process";

const root = path.resolve(import.meta.dirname, "..");
// This spec's own server: its address once started (beforeAll).
let base = "";

const PASSWORD = "crowd-otter-lantern-42";
const CODE = "E2E-C0DE";
const SCREEN_OUT = "E2E-N0PE";
const shots = process.env.SCREENSHOT_DIR;

let server: ServerProcess | null = null;
let db: Database.Database;
let stateDir: string;

/** A participant: an account (made by the CLI with a password, then given the participant role), in a study of the demo project, with this batch. */
function participant(name: string, studyId: number, refs: number[]): number {
  const dbFile = path.join(fs.readFileSync(path.join(stateDir, "state"), "utf8").trim(), "e2e.db");
  const r = spawnSync(path.join(root, "bin/lexgold"), ["user", "add", name, "--role", "annotator", "--project", "demo"], {
    env: { ...process.env, LEXGOLD_DB: dbFile, LEXGOLD_BCRYPT_COST: "4" },
    input: `${PASSWORD}\n`,
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  const user = db.prepare("update users set role = 'participant' where name = ? returning id, (select project_id from studies where id = ?) as projectId").get(name, studyId) as { id: number; projectId: number };
  const now = Date.now();
  const p = db
    .prepare("insert into participants (study_id, project_id, user_id, platform_id, platform_study_id, platform_session_id, joined_at, batch_at) values (?, ?, ?, ?, 'STUDY', 'SESSION', ?, ?) returning id")
    .get(studyId, user.projectId, user.id, `PID-${name}`, now, now) as { id: number };
  refs.forEach((ref, i) => db.prepare("insert into batch_items (participant_id, instance_ref, position) values (?, ?, ?)").run(p.id, ref, i + 1));
  return p.id;
}

function demoId(): number {
  return (db.prepare("select id from projects where name = 'demo'").get() as { id: number }).id;
}

function study(): number {
  return (
    db
      .prepare("insert into studies (project_id, token, platform, batch_size, overlap, minutes, completion_code, screen_out_code) values (?, ?, 'prolific', 3, 2, 60, ?, ?) returning id")
      .get(demoId(), `e2e-${Math.random().toString(36).slice(2)}`, CODE, SCREEN_OUT) as { id: number }
  ).id;
}

/** The demo's instances by instance id. */
function ref(instanceId: string): number {
  return (db.prepare("select i.id from instances i where i.project_id = ? and i.instance_id = ?").get(demoId(), instanceId) as { id: number }).id;
}

/** Through the sign-in form (next-auth's own sign-in), on this spec's server. */
async function signIn(page: Page, name: string) {
  await page.goto(`${base}/signin`);
  await page.getByLabel("User name").fill(name);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const sub = (page: Page, n: number) => page.getByLabel(`Substitute ${n}`);

async function shoot(page: Page, name: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  for (const [label, size] of [
    ["wide", { width: 1280, height: 800 }],
    ["narrow", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(shots, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test.beforeAll(async () => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-crowd-e2e-"));
  const port = await spareLoopbackPort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer("bash", ["e2e/serve.sh", String(port)], base, { cwd: root, env: { ...process.env, E2E_STATE_FILE: path.join(stateDir, "state") } });
  db = new Database(path.join(fs.readFileSync(path.join(stateDir, "state"), "utf8").trim(), "e2e.db"));
  db.pragma("busy_timeout = 5000");
});

test.afterAll(async () => {
  db?.close();
  await stopServer(server?.child);
  const dir = stateDir && fs.existsSync(path.join(stateDir, "state")) ? fs.readFileSync(path.join(stateDir, "state"), "utf8").trim() : null;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
});

test("a participant works through a batch of three from the keyboard and gets the completion code", async ({ page }) => {
  // The batch out of corpus order: d7, d2, d5.
  const batch = ["d7", "d2", "d5"];
  const pid = participant("crowd-pp", study(), batch.map(ref));
  await signIn(page, "crowd-pp");

  // Their study only: no accounts, no project list, no password to change.
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Your study" })).toBeVisible();
  await expect(nav.getByRole("link")).toHaveCount(1);

  await page.goto(`${base}/`);
  await expect(page).toHaveURL(new RegExp(`/annotate/${demoId()}/${ref("d7")}$`));
  await expect(heading(page)).toContainText("instance d7 ");
  await expect(page.getByRole("progressbar", { name: "Overall progress" })).toHaveAttribute("aria-valuemax", "3");
  await shoot(page, "crowd-workspace");

  // d7: a substitute; d2 and d5: NIL — Enter saves and moves on, in the batch's order.
  await expect(sub(page, 1)).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("placeholder");
  await page.keyboard.press("Enter");
  await expect(heading(page)).toContainText("instance d2 ");
  await page.keyboard.press("Alt+l");
  await page.keyboard.press("Enter");
  await expect(heading(page)).toContainText("instance d5 ");
  await page.keyboard.press("Alt+l");
  await page.keyboard.press("Enter");

  // The batch done: the completion code and the way back to Prolific.
  await expect(heading(page)).toHaveText("Thank you: your batch is complete");
  await expect(page.getByTestId("participant-code")).toHaveText(CODE);
  const back = page.getByRole("link", { name: "Return to Prolific" });
  await expect(back).toHaveAttribute("href", `https://app.prolific.com/submissions/complete?cc=${CODE}`);
  await expect(back).toBeFocused();
  await shoot(page, "crowd-complete");
  expect(db.prepare("select state, finished_at is not null as finished from participants where id = ?").get(pid)).toEqual({ state: "finished", finished: 1 });
  expect(db.prepare("select count(*) as n from responses r join users u on u.id = r.user_id where u.name = 'crowd-pp'").get()).toEqual({ n: 3 });

  // A finished participant may still change an answer while the study is open.
  await page.getByRole("link", { name: "review them" }).click();
  await expect(heading(page)).toContainText("instance d7 ");
  await expect(sub(page, 1)).toHaveValue("placeholder");

  // Nothing else is theirs: an instance outside the batch, the accounts pages, the projects.
  await page.goto(`${base}/annotate/${demoId()}/${ref("d1")}`);
  await expect(page.getByText("No such instance in this project.")).toBeVisible();
  for (const away of ["/accounts", "/account", "/projects", `/projects/${demoId()}`]) {
    await page.goto(`${base}${away}`);
    await expect(page).toHaveURL(new RegExp(`/annotate/${demoId()}(/\\d+)?$`));
  }
});

test("a participant who fails the training ends at the screen-out code", async ({ page }) => {
  // The demo project now requires training (this server's database only): d1 is its one item.
  db.prepare("insert into known_answers (project_id, instance_ref, role, accepted, set_at) values (?, ?, 'training', ?, ?)").run(demoId(), ref("d1"), JSON.stringify(["silent"]), Date.now());
  db.prepare("update projects set training_required = 1, training_threshold = 100 where id = ?").run(demoId());
  const pid = participant("crowd-out", study(), ["d3", "d4", "d6"].map(ref));
  await signIn(page, "crowd-out");
  await page.goto(`${base}/`);
  await expect(page).toHaveURL(new RegExp(`/annotate/${demoId()}/training$`));
  await expect(sub(page, 1)).toBeFocused();
  await page.keyboard.type("noisy");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "See your score" }).click();
  await expect(heading(page)).toHaveText("Thank you for your time");
  await expect(page.getByTestId("participant-code")).toHaveText(SCREEN_OUT);
  await expect(page.getByRole("link", { name: "Return to Prolific" })).toHaveAttribute("href", `https://app.prolific.com/submissions/complete?cc=${SCREEN_OUT}`);
  await shoot(page, "crowd-screened-out");
  expect(db.prepare("select state from participants where id = ?").get(pid)).toEqual({ state: "screened-out" });
  // No second attempt, no real instances.
  await page.goto(`${base}/annotate/${demoId()}/${ref("d3")}`);
  await expect(heading(page)).toHaveText("Thank you for your time");
});

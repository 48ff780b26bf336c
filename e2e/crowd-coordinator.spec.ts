/**
 * The coordinator's view of a crowd study (issue #32), in the browser: a Prolific study
 * of the demo project with three participants, seeded in a database of the spec's own
 * (the demo from the CLI; the study, its participants, their batches and their answers
 * written into the tables as the join and the workspace's saves would), served
 * by a server process of its own so that the shared demo server's gold stays as seeded.
 * The coordinator approves one participant with a bonus, rejects one with a reason,
 * downloads the payment files and the table and checks their lines, leaves the rejected
 * participant out of the gold (the gold download loses their answer) and undoes it.
 * The page fits: at 1440 px the participants table does not scroll sideways with a reject form
 * open, at 390 px nothing is wider than the screen; the "New study" form waits behind its
 * button. The Progress tab sums the study's participants in one row instead of listing them.
 * E2E_SHOTS_DIR: screenshots of the Crowd and Progress tabs, wide and narrow.
 */
import { type ChildProcess, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { type Page, expect, test } from "@playwright/test";
import { DEMO_PASSWORD, downloadText } from "./helpers";
import { spareLoopbackPort, startServer, stopServer } from "./server-process";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin", "lexgold");
const SHOTS = process.env.E2E_SHOTS_DIR;

/** Prolific ids are 24 hexadecimal digits. */
const PID = { approved: "6101a0000000000000000001", rejected: "6101a0000000000000000002", pending: "6101a0000000000000000003" };
/** The rejected participant's answer, which no demo annotator gives. */
const ODD = "xylophone";

let server: ChildProcess | null = null;
let dir = "";
let base = "";
let projectId = 0;

function env(port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || ".next-e2e",
    LEXGOLD_DB: path.join(dir, "crowd.db"),
    LEXGOLD_SECRET_FILE: path.join(dir, "secret"),
    LEXGOLD_BCRYPT_COST: "4",
    LEXGOLD_WORKERS: "1",
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
  };
}

function lexgold(e: NodeJS.ProcessEnv, args: string[]) {
  const r = spawnSync(bin, args, { env: e, encoding: "utf8", cwd: root, timeout: 120_000 });
  expect(r.status, `${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

/** The study and its participants, as the join, the allocation and the saves leave them. */
function seed(file: string): void {
  const db = new Database(file);
  try {
    projectId = (db.prepare("select id from projects where name = 'demo'").get() as { id: number }).id;
    const inst = db
      .prepare("select i.id as ref from instances i join lexelts l on l.id = i.lexelt_id where i.project_id = ? order by l.position, i.position limit 2")
      .all(projectId) as { ref: number }[];
    const now = Date.now();
    const study = Number(
      db
        .prepare("insert into studies (project_id, token, name, platform, batch_size, overlap, minutes, completion_code) values (?, 'e2e-crowd-token-0000000000', 'wave 1', 'prolific', 2, 3, 30, 'C0DE')")
        .run(projectId).lastInsertRowid,
    );
    const answers: Record<string, [string[], string[]]> = { [PID.approved]: [["glowing"], ["clever"]], [PID.rejected]: [[ODD], [ODD]], [PID.pending]: [["glowing"], ["clever", "quick"]] };
    Object.values(PID).forEach((pid, k) => {
      const name = `prolific-${pid}`;
      const user = Number(db.prepare("insert into users (name, password_hash, role) values (?, '', 'participant')").run(name).lastInsertRowid);
      db.prepare("insert into memberships (project_id, user_id, role) values (?, ?, 'annotator')").run(projectId, user);
      const p = Number(
        db
          .prepare(
            "insert into participants (study_id, project_id, user_id, platform_id, platform_study_id, platform_session_id, joined_at, batch_at, finished_at, state, active_ms) values (?, ?, ?, ?, 'STUDY1', ?, ?, ?, ?, 'finished', ?)",
          )
          .run(study, projectId, user, pid, `SESSION${k}`, now - 3_600_000 + k * 60_000, now - 3_600_000 + k * 60_000, now - 1_800_000 + k * 60_000, 300_000 + k * 1000).lastInsertRowid,
      );
      inst.forEach((i, pos) => {
        db.prepare("insert into batch_items (participant_id, instance_ref, position) values (?, ?, ?)").run(p, i.ref, pos);
        const subs = JSON.stringify(answers[pid][pos]);
        const at = now - 1_900_000 + k * 60_000 + pos * 30_000;
        const r = Number(
          db
            .prepare("insert into responses (project_id, instance_ref, user_id, kind, substitutes, multiword, revision, active_ms, updated_at) values (?, ?, ?, 'substitutes', ?, null, 1, 30000, ?)")
            .run(projectId, i.ref, user, subs, at).lastInsertRowid,
        );
        db.prepare("insert into response_history (response_id, project_id, instance_ref, user_id, kind, substitutes, multiword, revision, source, saved_at) values (?, ?, ?, ?, 'substitutes', ?, null, 1, 'web', ?)").run(
          r,
          projectId,
          i.ref,
          user,
          subs,
          at,
        );
      });
    });
  } finally {
    db.close();
  }
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-crowd-e2e-"));
  const port = await spareLoopbackPort();
  base = `http://127.0.0.1:${port}`;
  const e = env(port);
  lexgold(e, ["demo"]);
  seed(e.LEXGOLD_DB!);
  server = (await startServer(process.execPath, ["scripts/serve.mjs", "-p", String(port), "-H", "127.0.0.1"], base, { env: e, cwd: root })).child;
});

test.afterAll(async () => {
  await stopServer(server);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

const row = (page: Page, pid: string) => page.locator(`tr[data-participant="${pid}"]`);

async function gold(page: Page): Promise<string> {
  const res = await page.request.get(`/api/projects/${projectId}/gold?file=gold`);
  expect(res.status()).toBe(200);
  return res.text();
}

test("the coordinator reviews a Prolific study's participants, downloads the payment files, and leaves the rejected one out of the gold", async ({ browser }) => {
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  await page.goto("/signin");
  await page.getByLabel("User name").fill("coordinator");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  // The Crowd tab: the study with its counts, then its participants.
  await page.goto(`/projects/${projectId}`);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Crowd" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Crowd");
  const studyRow = page.getByRole("table", { name: "Studies" }).getByRole("row").filter({ hasText: "wave 1" });
  // Prolific, open, batch 2, overlap 3, 30 minutes, 3 joined, 3 finished, 2 instances with 3 answers.
  await expect(studyRow).toContainText(/Prolific\s*open\s*2\s*3\s*30\s*3\s*3\s*2/);
  await expect(page.getByRole("heading", { name: "Participants of wave 1" })).toBeVisible();
  for (const pid of Object.values(PID)) await expect(row(page, pid)).toContainText("2 / 2");
  // The one who answered xylophone twice agrees with nobody.
  await expect(row(page, PID.rejected).getByRole("cell").nth(4)).toHaveText("0.0 %");

  // The project has a study: the form for another waits behind its button, and opens by it.
  const newStudy = page.getByRole("button", { name: "New study" });
  await expect(newStudy).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("form", { name: "New study" })).toBeHidden();
  await newStudy.click();
  await expect(page.getByRole("form", { name: "New study" }).getByLabel("Batch size")).toBeVisible();
  await newStudy.click();
  await expect(page.getByRole("form", { name: "New study" })).toBeHidden();
  // Long Prolific ids are shortened in the middle, the whole id on hover.
  await expect(row(page, PID.approved).getByRole("rowheader")).toContainText("6101a0…0001");
  await expect(row(page, PID.approved).getByTitle(PID.approved)).toBeVisible();

  // Approve one with a bonus; reject another with a reason.
  await row(page, PID.approved).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText(`Approved ${PID.approved}.`)).toBeVisible();
  await row(page, PID.approved).getByRole("textbox", { name: "Bonus" }).fill("1.50");
  await row(page, PID.approved).getByRole("button", { name: "Set" }).click();
  await expect(page.getByText(`Bonus 1.50 for ${PID.approved}.`)).toBeVisible();
  await row(page, PID.rejected).getByRole("button", { name: "Reject…" }).click();
  // With the reject form open, the table still fits a 1440 px window, and a 390 px screen has nothing wider than itself.
  const participantsTable = page.getByRole("table", { name: "Participants" });
  const overflow = () => participantsTable.evaluate((t) => ({ table: t.parentElement!.scrollWidth - t.parentElement!.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth }));
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await overflow()).toEqual({ table: 0, page: 0 });
  await shoot(page, "crowd-reject-open");
  await page.setViewportSize({ width: 390, height: 844 });
  expect((await overflow()).page).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });
  await row(page, PID.rejected).getByRole("button", { name: "Reject", exact: true }).click();
  // The reason is required: the browser asks for it, nothing is sent.
  await expect(row(page, PID.rejected).getByText("pending")).toBeVisible();
  await row(page, PID.rejected).getByRole("textbox", { name: "Reason (shown to the participant)" }).fill("Answered the same word to every sentence.");
  await row(page, PID.rejected).getByRole("button", { name: "Reject", exact: true }).click();
  await expect(page.getByText(`Rejected ${PID.rejected}.`)).toBeVisible();
  await expect(row(page, PID.rejected)).toContainText("“Answered the same word to every sentence.”");
  await expect(row(page, PID.approved)).toContainText("bonus 1.50");
  await shoot(page, "crowd");

  // The payment files.
  const approve = await downloadText(page, /Prolific: approved ids/);
  expect(approve).toEqual({ name: "demo-wave-1-approve.txt", text: `${PID.approved}\n` });
  const bonus = await downloadText(page, /Prolific: bonuses/);
  expect(bonus).toEqual({ name: "demo-wave-1-bonus.csv", text: `${PID.approved},1.50\n` });
  const table = await downloadText(page, /All participants \(TSV\)/);
  const lines = table.text.split("\n").filter((l) => l !== "").map((l) => l.split("\t"));
  expect(lines[0].slice(0, 3)).toEqual(["platform_id", "session_id", "state"]);
  expect(lines.slice(1).map((l) => [l[0], l[1], l[6], l[7], l[13], l[14], l[15]])).toEqual([
    [PID.approved, "SESSION0", "2", "2", "approved", "", "1.50"],
    [PID.rejected, "SESSION1", "2", "2", "rejected", "Answered the same word to every sentence.", ""],
    [PID.pending, "SESSION2", "2", "2", "pending", "", ""],
  ]);

  // The rejected participant's answers leave the gold with one decision, and come back with its undo.
  expect(await gold(page)).toContain(`${ODD} 1;`);
  await page.getByRole("button", { name: "Leave 1 rejected participant out of the gold" }).click();
  await expect(page.getByText("Left 1 rejected participant's answers out of the gold.")).toBeVisible();
  await expect(row(page, PID.rejected)).toContainText("left out of the gold");
  expect(await gold(page)).not.toContain(ODD);
  await shoot(page, "crowd-left-out");
  await page.getByRole("button", { name: /^Undo: put their answers back/ }).click();
  await expect(page.getByText("Put 1 participant's answers back into the gold.")).toBeVisible();
  expect(await gold(page)).toContain(`${ODD} 1;`);

  // The Progress tab: the team's annotators as rows, the study's participants as one row linking to the Crowd tab.
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Progress" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Progress");
  const annotators = page.getByRole("table", { name: "Annotators" });
  await expect(annotators.getByRole("row")).toHaveCount(1 + 5);
  await expect(annotators).not.toContainText(PID.approved);
  const crowd = page.getByRole("table", { name: "Crowd" });
  // wave 1: 3 joined, 3 finished, 6 answers.
  await expect(crowd.getByRole("row").filter({ hasText: "wave 1" })).toContainText(/wave 1.*Prolific · open\s*3\s*3\s*6/);
  await expect(page.getByRole("region", { name: "Crowd participants" })).toContainText("3");
  // The demo sets no number of annotators per instance: the page says what that means with a crowd.
  await expect(page.getByText("Crowd participants are annotators of every lexelt here")).toBeVisible();
  await shoot(page, "progress-crowd");
  await crowd.getByRole("link", { name: "wave 1" }).click();
  await expect(page.getByRole("heading", { name: "Participants of wave 1" })).toBeVisible();
});

/**
 * Every server-action form answers a native post (#38 item 2): the production build served as
 * `lexgold start` serves it, each page with such forms rendered for the role that uses it, and
 * each form posted as a browser posts it before hydration or without JavaScript (multipart, the
 * form's own `$ACTION_…` fields, the pressed button) — answered (the page with the outcome, or a
 * redirect) and the change made; afterwards the server still answers.
 *
 * The answer is waited for at most ANSWER_MS: a guard against a hang (a form used to wedge its
 * server process for good), never a measure of speed.
 *
 * Every server-action form found on the pages visited must be one posted here: a new form fails
 * this test until it is added to it.
 *
 * It uses the production build in .next-e2e, built first when the sources are newer (scripts/test-all.sh
 * builds it before the unit tests).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../../bench/lib/auth";
import { buildIfNeeded, freePort, ROOT, Server } from "../../bench/lib/server";
import { formsIn, type NativeForm, nativeBody } from "../support/native-form";

const DIST = process.env.NATIVE_FORMS_DIST || ".next-e2e";
const ANSWER_MS = 30_000;
const PASSWORD = "lexgold-demo";

let dir = "";
let server: Server;
let db: Database.Database;
let projectId = 0;
const cookies: Record<string, string> = {};
/** page path → labels of the server-action forms posted from it. */
const posted = new Map<string, Set<string>>();

function lexgold(args: string[], env: NodeJS.ProcessEnv): string {
  const r = spawnSync(path.join(ROOT, "bin", "lexgold"), args, { env, encoding: "utf8", cwd: ROOT, timeout: 300_000 });
  if (r.status !== 0) throw new Error(`lexgold ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Two finished Prolific participants of the study, with answers: one to approve, one rejected. */
function seedParticipants(file: string, studyId: number): void {
  const d = new Database(file);
  try {
    const refs = d.prepare("select i.id as ref from instances i join lexelts l on l.id = i.lexelt_id where i.project_id = ? order by l.position, i.position limit 2").all(projectId) as { ref: number }[];
    const now = Date.now();
    for (const [k, pid] of ["6101a0000000000000000001", "6101a0000000000000000002"].entries()) {
      const user = Number(d.prepare("insert into users (name, password_hash, role) values (?, '', 'participant')").run(`prolific-${pid}`).lastInsertRowid);
      d.prepare("insert into memberships (project_id, user_id, role) values (?, ?, 'annotator')").run(projectId, user);
      const p = Number(
        d
          .prepare("insert into participants (study_id, project_id, user_id, platform_id, platform_study_id, platform_session_id, joined_at, batch_at, finished_at, state, active_ms, review, review_reason) values (?, ?, ?, ?, 'STUDY1', ?, ?, ?, ?, 'finished', 60000, ?, ?)")
          .run(studyId, projectId, user, pid, `SESSION${k}`, now - 3_600_000, now - 3_600_000, now - 1_800_000, k === 0 ? "pending" : "rejected", k === 0 ? "" : "Answers unrelated to the sentence.").lastInsertRowid,
      );
      refs.forEach(({ ref }, pos) => {
        d.prepare("insert into batch_items (participant_id, instance_ref, position) values (?, ?, ?)").run(p, ref, pos);
        const r = Number(d.prepare("insert into responses (project_id, instance_ref, user_id, kind, substitutes, multiword, revision, active_ms, updated_at) values (?, ?, ?, 'substitutes', ?, null, 1, 30000, ?)").run(projectId, ref, user, JSON.stringify(["zither"]), now).lastInsertRowid);
        d.prepare("insert into response_history (response_id, project_id, instance_ref, user_id, kind, substitutes, multiword, revision, source, saved_at) values (?, ?, ?, ?, 'substitutes', ?, null, 1, 'web', ?)").run(r, projectId, ref, user, JSON.stringify(["zither"]), now);
      });
    }
  } finally {
    d.close();
  }
}

beforeAll(async () => {
  buildIfNeeded(DIST, false, () => {});
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-native-forms-"));
  const port = await freePort();
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LEXGOLD_DB: path.join(dir, "forms.db"), LEXGOLD_SECRET_FILE: path.join(dir, "secret"), LEXGOLD_BCRYPT_COST: "4" };
  lexgold(["demo"], env);
  const out = lexgold(["study", "create", "--project", "demo", "--platform", "prolific", "--batch", "2", "--overlap", "3", "--minutes", "30", "--completion-code", "C0DE", "--name", "wave 1", "--origin", `http://127.0.0.1:${port}`], env);
  const studyId = Number(/opened study (\d+)/.exec(out)![1]);
  db = new Database(env.LEXGOLD_DB, { readonly: true });
  projectId = (db.prepare("select id from projects where name = 'demo'").get() as { id: number }).id;
  seedParticipants(env.LEXGOLD_DB, studyId);
  server = new Server({ distDir: DIST, dbFile: env.LEXGOLD_DB, secretFile: env.LEXGOLD_SECRET_FILE, port, env: { LEXGOLD_WORKERS: "1", LEXGOLD_BCRYPT_COST: "4" } });
  await server.start(180_000);
  for (const name of ["coordinator", "annotator1"]) cookies[name] = await signIn(server.base, name, PASSWORD);
}, 900_000);

afterAll(async () => {
  await server?.stop();
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function page(who: string, at: string): Promise<{ html: string; forms: NativeForm[] }> {
  const res = await fetch(server.base + at, { headers: { Cookie: cookies[who] }, redirect: "manual", signal: AbortSignal.timeout(ANSWER_MS) });
  const html = await res.text();
  expect(res.status, `GET ${at}: ${html.slice(0, 300)}`).toBe(200);
  return { html, forms: formsIn(html) };
}

/** A form's label with the names of this test's studies, rounds and participants left out: the same form for each. */
const generic = (label: string) => label.replace(/wave \d+|native|Post hoc|6101a0+\d+/g, "…");

/** A page's path with its ids left out: the forms of one project's page are those of every project's. */
const pageKey = (at: string) => at.replace(/\?.*$/, "").replace(/\/\d+(?=\/|$)/g, "/:id");

interface Answer {
  status: number;
  location: string | null;
  html: string;
}

/**
 * Post the form labelled `label` on page `at` as a browser without JavaScript does, pressing the
 * submit button whose text matches `button` (the first one otherwise), with `set` typed into it.
 */
async function post(who: string, at: string, label: string | RegExp, o: { button?: string | RegExp; set?: Record<string, string | string[] | File> } = {}): Promise<Answer> {
  const { forms } = await page(who, at);
  const matches = (l: string) => (typeof label === "string" ? l === label : label.test(l));
  const form = forms.find((f) => f.serverAction && matches(f.label));
  expect(form, `no server-action form "${label}" on ${at}: ${forms.map((f) => f.label).join(" | ")}`).toBeDefined();
  const button = o.button ? form!.buttons.find((b) => (typeof o.button === "string" ? b.text === o.button : o.button!.test(b.text))) : form!.buttons[0];
  expect(button, `no button ${o.button} in "${form!.label}"`).toBeDefined();
  expect(button!.disabled, `"${button!.text}" is disabled in the HTML: a browser without JavaScript cannot press it`).toBe(false);
  const signal = AbortSignal.timeout(ANSWER_MS);
  let res: Response;
  try {
    res = await fetch(server.base + at, { method: "POST", headers: { Cookie: cookies[who], Origin: server.base, Accept: "text/html" }, body: nativeBody(form!, button, o.set), redirect: "manual", signal });
  } catch (e) {
    throw new Error(`"${form!.label}" on ${at}: no answer within ${ANSWER_MS / 1000} s (${(e as Error).name})\n${server.tail(10)}`);
  }
  const html = await res.text();
  posted.set(pageKey(at), (posted.get(pageKey(at)) ?? new Set()).add(generic(form!.label)));
  // The server still serves.
  const after = await fetch(`${server.base}/signin`, { signal: AbortSignal.timeout(ANSWER_MS) });
  expect(after.status).toBe(200);
  return { status: res.status, location: res.headers.get("location"), html };
}

/** The page with the action's outcome (a useActionState form), whose status line says `said`. */
function shows(a: Answer, said: string | RegExp) {
  expect(a.status, a.html.slice(0, 500)).toBe(200);
  const text = a.html.replace(/<[^>]*>/g, " ").replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/\s+/g, " ");
  if (typeof said === "string") expect(text).toContain(said);
  else expect(text).toMatch(said);
}

/** A redirect (a form whose action redirects), to a URL matching `to`. */
function redirects(a: Answer, to: RegExp) {
  expect([303, 307], a.html.slice(0, 500)).toContain(a.status);
  expect(a.location).toMatch(to);
}

const one = <T>(sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as T;

describe("the project forms (coordinator)", () => {
  let q = 0;
  it("creates a project", async () => {
    const a = await post("coordinator", "/projects", "Create project", { set: { name: "native-forms" } });
    q = one<{ id: number }>("select id from projects where name = 'native-forms'").id;
    redirects(a, new RegExp(`/projects/${q}$`));
  });

  it("renames it, sets its language, archives it and brings it back", async () => {
    shows(await post("coordinator", `/projects/${q}`, "Rename", { set: { name: "native-forms-2" } }), "Renamed to “native-forms-2”.");
    expect(one<{ name: string }>("select name from projects where id = ?", q).name).toBe("native-forms-2");
    shows(await post("coordinator", `/projects/${q}`, "Set language", { set: { language: "de" } }), "Language set to");
    expect(one<{ language: string }>("select language from projects where id = ?", q).language).toBe("de");
    shows(await post("coordinator", `/projects/${q}`, "Archive project"), "Archived:");
    expect(one<{ a: number | null }>("select archived_at as a from projects where id = ?", q).a).not.toBeNull();
    shows(await post("coordinator", `/projects/${q}`, "Bring back from the archive"), "Back from the archive");
    expect(one<{ a: number | null }>("select archived_at as a from projects where id = ?", q).a).toBeNull();
  });

  it("deletes it", async () => {
    redirects(await post("coordinator", `/projects/${q}/delete`, "Delete this project", { set: { confirm: "native-forms-2" } }), /\/projects\?deleted=/);
    expect(one("select id from projects where id = ?", q)).toBeUndefined();
  });
});

describe("the Crowd tab (coordinator)", () => {
  const at = () => `/projects/${projectId}/crowd`;
  /** The page of wave 1's participants (the newest study's are shown by default). */
  const wave1 = () => `${at()}?study=${one<{ id: number }>("select id from studies where name = 'wave 1'").id}`;
  const state = () => one<{ state: string }>("select state from studies where name = 'wave 1'").state;

  it("pauses, closes and opens the study again", async () => {
    shows(await post("coordinator", at(), "Pause wave 1"), "“wave 1” is paused");
    expect(state()).toBe("paused");
    shows(await post("coordinator", at(), "Close wave 1"), "“wave 1” is closed");
    expect(state()).toBe("closed");
    shows(await post("coordinator", at(), "Open again wave 1"), "“wave 1” is open");
    expect(state()).toBe("open");
  });

  it("opens a new study", async () => {
    shows(await post("coordinator", at(), "New study", { set: { name: "wave 2", completionCode: "C0DE2" } }), "Opened “wave 2”");
    expect(one<{ n: number }>("select count(*) as n from studies where name = 'wave 2'").n).toBe(1);
  });

  it("approves a participant, sets their bonus and sets them back to pending", async () => {
    const review = () => one<{ review: string; bonus: number | null }>("select review, bonus_cents as bonus from participants where platform_id = '6101a0000000000000000001'");
    shows(await post("coordinator", wave1(), "Review 6101a0000000000000000001", { button: "Approve" }), "Approved 6101a0000000000000000001.");
    expect(review().review).toBe("approved");
    shows(await post("coordinator", wave1(), "Bonus for 6101a0000000000000000001", { set: { bonus: "1.50" } }), "Bonus 1.50 for 6101a0000000000000000001.");
    expect(review().bonus).toBe(150);
    shows(await post("coordinator", wave1(), "Review 6101a0000000000000000001", { button: "Undo" }), "Set back to pending: 6101a0000000000000000001.");
    expect(review().review).toBe("pending");
  });

  it("rejects a participant with a reason", async () => {
    shows(await post("coordinator", wave1(), "Reject 6101a0000000000000000001", { set: { reason: "Did not read the sentences." } }), "Rejected 6101a0000000000000000001.");
    const r = one<{ review: string; reason: string }>("select review, review_reason as reason from participants where platform_id = '6101a0000000000000000001'");
    expect(r).toEqual({ review: "rejected", reason: "Did not read the sentences." });
    shows(await post("coordinator", wave1(), "Review 6101a0000000000000000001", { button: "Undo" }), "Set back to pending: 6101a0000000000000000001.");
  });

  it("leaves the rejected participant's answers out of the gold and puts them back", async () => {
    const exclusion = () => db.prepare("select undone_at as undone from participant_exclusions").all() as { undone: number | null }[];
    shows(await post("coordinator", wave1(), /^Leave 1 rejected participant out of the gold$/), "Left 1 rejected participant's answers out of the gold.");
    expect(exclusion()).toEqual([{ undone: null }]);
    shows(await post("coordinator", wave1(), /^Undo: put their answers back$/), /back/);
    expect(exclusion()[0].undone).not.toBeNull();
  });
});

describe("the Judgement tab (coordinator)", () => {
  const at = () => `/projects/${projectId}/judgement`;
  const userId = (name: string) => one<{ id: number }>("select id from users where name = ?", name).id;
  const judges = () => (db.prepare("select u.name from judgement_judges j join users u on u.id = j.user_id join judgement_rounds r on r.id = j.round_id where r.name = 'native' order by u.name").all() as { name: string }[]).map((r) => r.name);

  it("creates a round with a judge", async () => {
    shows(await post("coordinator", at(), "New judgement round", { set: { name: "native", sampleSize: "3", judge: String(userId("annotator1")) } }), /Created "native": \d+ items/);
    expect(judges()).toEqual(["annotator1"]);
  });

  it("changes its judges, closes it and opens it again", async () => {
    shows(await post("coordinator", at(), "Judges of native", { set: { judge: [String(userId("annotator1")), String(userId("annotator2"))] } }), 'Judges of "native": ');
    expect(judges()).toEqual(["annotator1", "annotator2"]);
    const state = () => one<{ state: string }>("select state from judgement_rounds where name = 'native'").state;
    shows(await post("coordinator", at(), "Close native"), '"native" is closed');
    expect(state()).toBe("closed");
    shows(await post("coordinator", at(), "Reopen native"), '"native" is open again.');
    expect(state()).toBe("open");
  });
});

describe("the Training tab (coordinator)", () => {
  const at = () => `/projects/${projectId}/training`;
  const ok = (a: Answer) => redirects(a, /\/training\?ok=/);
  const instance = () => one<{ id: string; ref: number; lexelt: number }>("select i.instance_id as id, i.id as ref, i.lexelt_id as lexelt from instances i where i.project_id = ? order by i.id limit 1", projectId);

  it("saves the settings, the guidelines and a lexelt's note", async () => {
    ok(await post("coordinator", at(), "Save settings", { set: { trainingThreshold: "70" } }));
    expect(one<{ t: number }>("select training_threshold as t from projects where id = ?", projectId).t).toBe(70);
    ok(await post("coordinator", at(), "Save guidelines", { set: { guidelines: "Read the whole sentence." } }));
    expect(one<{ g: string }>("select guidelines as g from projects where id = ?", projectId).g).toBe("Read the whole sentence.");
    ok(await post("coordinator", at(), "Save note", { set: { lexeltId: String(instance().lexelt), note: "Mind the sense." } }));
    expect(one<{ note: string }>("select note from lexelts where id = ?", instance().lexelt).note).toBe("Mind the sense.");
  });

  it("marks known answers: one item, a TSV upload, the current gold", async () => {
    const known = () => one<{ n: number }>("select count(*) as n from known_answers where project_id = ?", projectId).n;
    ok(await post("coordinator", at(), "Save item", { set: { instanceId: instance().id, accepted: "bright" } }));
    expect(one<{ accepted: string }>("select accepted from known_answers where instance_ref = ?", instance().ref).accepted).toContain("bright");
    const second = one<{ id: string }>("select i.instance_id as id from instances i where i.project_id = ? order by i.id limit 1 offset 1", projectId);
    const tsv = new File([`${second.id}\tclever;smart\n`], "known.tsv", { type: "text/tab-separated-values" });
    const before = known();
    ok(await post("coordinator", at(), "Upload", { set: { file: tsv } }));
    expect(known()).toBe(before + 1);
    const third = one<{ id: string }>("select i.instance_id as id from instances i where i.project_id = ? and i.id not in (select instance_ref from known_answers) and i.id in (select instance_ref from responses) order by i.id limit 1", projectId);
    const beforeGold = known();
    ok(await post("coordinator", at(), "Mark with their gold", { set: { instanceIds: third.id } }));
    expect(known()).toBe(beforeGold + 1);
  });

  it("removes a known answer", async () => {
    const before = one<{ n: number }>("select count(*) as n from known_answers where project_id = ?", projectId).n;
    ok(await post("coordinator", at(), "Remove"));
    expect(one<{ n: number }>("select count(*) as n from known_answers where project_id = ?", projectId).n).toBe(before - 1);
  });
});

describe("a form that holds a password, sent before the page runs its script", () => {
  it.each([
    [null, "/signin"],
    ["coordinator", "/account"],
    ["coordinator", "/projects/PID/members"],
  ])("%s on %s: posted, so the password goes into no URL", async (who, p) => {
    const at = p.replace("PID", String(projectId));
    const res = await fetch(server.base + at, { headers: who ? { Cookie: cookies[who] } : {}, signal: AbortSignal.timeout(ANSWER_MS) });
    const withPassword = formsIn(await res.text()).filter((f) => f.fields.some((x) => /^(password|current|next|confirm)$/.test(x.name)));
    expect(withPassword.length).toBeGreaterThan(0);
    for (const f of withPassword) expect(f.method, `"${f.label}" on ${at}`).toBe("post");
  });
});

describe("no server-action form is left out", () => {
  it.each([
    ["coordinator", ["/projects", "/projects/PID", "/projects/PID/crowd", "/projects/PID/crowd?study=1", "/projects/PID/judgement", "/projects/PID/training", "/projects/PID/members", "/projects/PID/gold", "/projects/PID/flags", "/projects/PID/progress", "/projects/PID/agreement", "/projects/PID/datasets", "/projects/PID/scoring", "/projects/PID/scoring/ranking", "/accounts", "/account"]],
    ["annotator1", ["/annotate", "/annotate/PID/training", "/annotate/flags", "/judge", "/account"]],
  ])("every server-action form %s meets on its pages was posted above", async (who, paths) => {
    const missing: string[] = [];
    for (const p of paths) {
      const at = p.replace("PID", String(projectId));
      const res = await fetch(server.base + at, { headers: { Cookie: cookies[who] }, redirect: "manual", signal: AbortSignal.timeout(ANSWER_MS) });
      if (res.status !== 200) {
        await res.body?.cancel();
        continue;
      }
      const done = posted.get(pageKey(at)) ?? new Set();
      for (const f of formsIn(await res.text())) if (f.serverAction && !done.has(generic(f.label))) missing.push(`${at}: "${f.label}"`);
    }
    expect(missing).toEqual([]);
  });
});

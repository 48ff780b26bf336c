/** The project, Crowd, Judgement and Training forms posted without JavaScript (test/server/native-forms/native-forms.test.ts). */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { formsIn } from "../../support/native-form";
import { ANSWER_MS, type Answer, lexgold, one, post, redirects, shows, world } from "../../support/native-world";

/** A Prolific study, and two finished participants of it with answers: one to approve, one rejected. */
export function seedParticipants(file: string, port: number): void {
  const out = lexgold(["study", "create", "--project", "demo", "--platform", "prolific", "--batch", "2", "--overlap", "3", "--minutes", "30", "--completion-code", "C0DE", "--name", "wave 1", "--origin", `http://127.0.0.1:${port}`]);
  const studyId = Number(/opened study (\d+)/.exec(out)![1]);
  const d = new Database(file);
  try {
    const refs = d.prepare("select i.id as ref from instances i join lexelts l on l.id = i.lexelt_id where i.project_id = ? order by l.position, i.position limit 2").all(world.projectId) as { ref: number }[];
    const now = Date.now();
    for (const [k, pid] of ["6101a0000000000000000001", "6101a0000000000000000002"].entries()) {
      const user = Number(d.prepare("insert into users (name, password_hash, role) values (?, '', 'participant')").run(`prolific-${pid}`).lastInsertRowid);
      d.prepare("insert into memberships (project_id, user_id, role) values (?, ?, 'annotator')").run(world.projectId, user);
      const p = Number(
        d
          .prepare("insert into participants (study_id, project_id, user_id, platform_id, platform_study_id, platform_session_id, joined_at, batch_at, finished_at, state, active_ms, review, review_reason) values (?, ?, ?, ?, 'STUDY1', ?, ?, ?, ?, 'finished', 60000, ?, ?)")
          .run(studyId, world.projectId, user, pid, `SESSION${k}`, now - 3_600_000, now - 3_600_000, now - 1_800_000, k === 0 ? "pending" : "rejected", k === 0 ? "" : "Answers unrelated to the sentence.").lastInsertRowid,
      );
      refs.forEach(({ ref }, pos) => {
        d.prepare("insert into batch_items (participant_id, instance_ref, position) values (?, ?, ?)").run(p, ref, pos);
        const r = Number(d.prepare("insert into responses (project_id, instance_ref, user_id, kind, substitutes, multiword, revision, active_ms, updated_at) values (?, ?, ?, 'substitutes', ?, null, 1, 30000, ?)").run(world.projectId, ref, user, JSON.stringify(["zither"]), now).lastInsertRowid);
        d.prepare("insert into response_history (response_id, project_id, instance_ref, user_id, kind, substitutes, multiword, revision, source, saved_at) values (?, ?, ?, ?, 'substitutes', ?, null, 1, 'web', ?)").run(r, world.projectId, ref, user, JSON.stringify(["zither"]), now);
      });
    }
  } finally {
    d.close();
  }
}

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
  const at = () => `/projects/${world.projectId}/crowd`;
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
    const exclusion = () => world.db.prepare("select undone_at as undone from participant_exclusions").all() as { undone: number | null }[];
    shows(await post("coordinator", wave1(), /^Leave 1 rejected participant out of the gold$/), "Left 1 rejected participant's answers out of the gold.");
    expect(exclusion()).toEqual([{ undone: null }]);
    shows(await post("coordinator", wave1(), /^Undo: put their answers back$/), /back/);
    expect(exclusion()[0].undone).not.toBeNull();
  });
});

describe("the Judgement tab (coordinator)", () => {
  const at = () => `/projects/${world.projectId}/judgement`;
  const userId = (name: string) => one<{ id: number }>("select id from users where name = ?", name).id;
  const judges = () => (world.db.prepare("select u.name from judgement_judges j join users u on u.id = j.user_id join judgement_rounds r on r.id = j.round_id where r.name = 'native' order by u.name").all() as { name: string }[]).map((r) => r.name);

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
  const at = () => `/projects/${world.projectId}/training`;
  const ok = (a: Answer) => redirects(a, /\/training\?ok=/);
  const instance = () => one<{ id: string; ref: number; lexelt: number }>("select i.instance_id as id, i.id as ref, i.lexelt_id as lexelt from instances i where i.project_id = ? order by i.id limit 1", world.projectId);

  it("saves the settings, the guidelines and a lexelt's note", async () => {
    ok(await post("coordinator", at(), "Save settings", { set: { trainingThreshold: "70" } }));
    expect(one<{ t: number }>("select training_threshold as t from projects where id = ?", world.projectId).t).toBe(70);
    ok(await post("coordinator", at(), "Save guidelines", { set: { guidelines: "Read the whole sentence." } }));
    expect(one<{ g: string }>("select guidelines as g from projects where id = ?", world.projectId).g).toBe("Read the whole sentence.");
    ok(await post("coordinator", at(), "Save note", { set: { lexeltId: String(instance().lexelt), note: "Mind the sense." } }));
    expect(one<{ note: string }>("select note from lexelts where id = ?", instance().lexelt).note).toBe("Mind the sense.");
  });

  it("marks known answers: one item, a TSV upload, the current gold", async () => {
    const known = () => one<{ n: number }>("select count(*) as n from known_answers where project_id = ?", world.projectId).n;
    ok(await post("coordinator", at(), "Save item", { set: { instanceId: instance().id, accepted: "bright" } }));
    expect(one<{ accepted: string }>("select accepted from known_answers where instance_ref = ?", instance().ref).accepted).toContain("bright");
    const second = one<{ id: string }>("select i.instance_id as id from instances i where i.project_id = ? order by i.id limit 1 offset 1", world.projectId);
    const tsv = new File([`${second.id}\tclever;smart\n`], "known.tsv", { type: "text/tab-separated-values" });
    const before = known();
    ok(await post("coordinator", at(), "Upload", { set: { file: tsv } }));
    expect(known()).toBe(before + 1);
    const third = one<{ id: string }>("select i.instance_id as id from instances i where i.project_id = ? and i.id not in (select instance_ref from known_answers) and i.id in (select instance_ref from responses) order by i.id limit 1", world.projectId);
    const beforeGold = known();
    ok(await post("coordinator", at(), "Mark with their gold", { set: { instanceIds: third.id } }));
    expect(known()).toBe(beforeGold + 1);
  });

  it("removes a known answer", async () => {
    const before = one<{ n: number }>("select count(*) as n from known_answers where project_id = ?", world.projectId).n;
    ok(await post("coordinator", at(), "Remove"));
    expect(one<{ n: number }>("select count(*) as n from known_answers where project_id = ?", world.projectId).n).toBe(before - 1);
  });
});

describe("a form that holds a password, sent before the page runs its script", () => {
  it.each([
    [null, "/signin"],
    ["coordinator", "/account"],
    ["coordinator", "/projects/PID/members"],
  ])("%s on %s: posted, so the password goes into no URL", async (who, p) => {
    const where = p.replace("PID", String(world.projectId));
    const res = await fetch(world.server.base + where, { headers: who ? { Cookie: world.cookies[who] } : {}, signal: AbortSignal.timeout(ANSWER_MS) });
    const withPassword = formsIn(await res.text()).filter((f) => f.fields.some((x) => /^(password|current|next|confirm)$/.test(x.name)));
    expect(withPassword.length).toBeGreaterThan(0);
    for (const f of withPassword) expect(f.method, `"${f.label}" on ${where}`).toBe("post");
  });
});

describe("the Releases tab (coordinator)", () => {
  const at = () => `/projects/${world.projectId}/releases`;

  it("saves the datasheet's answers and makes a release", async () => {
    redirects(await post("coordinator", at(), "Save answers", { set: { title: "Native forms" } }), /\/releases/);
    expect(JSON.parse(one<{ a: string }>("select answers as a from release_datasheets where project_id = ?", world.projectId).a).title).toBe("Native forms");
    redirects(await post("coordinator", at(), "Make release", { set: { version: "9.9.9" } }), /\/releases/);
    expect(one<{ n: number }>("select count(*) as n from jobs where project_id = ? and kind = 'release'", world.projectId).n).toBe(1);
  });
});

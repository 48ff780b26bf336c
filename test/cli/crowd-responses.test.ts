/**
 * `lexgold responses export` of a crowd study's project and `responses import` of that file
 * into another project (issue #32): the participants' lines are read as theirs under the names
 * as written, the one left out of the gold in its project refused and listed, and what stays
 * with the study said.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-crowd-cli-"));
const db = path.join(dir, "crowd.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

function lexgold(args: string[]) {
  const r = spawnSync(bin, args, { encoding: "utf8", env: { ...process.env, LEXGOLD_BCRYPT_COST: "4", LEXGOLD_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const xml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="keen.a">
<instance id="k1"><context>a <head>keen</head> student of birds</context></instance>
<instance id="k2"><context>a <head>keen</head> wind from the north</context></instance>
</lexelt>
</corpus>
`;
const A = "prolific:1:64a000000000000000000001";
const B = "prolific:1:64a000000000000000000002";

beforeAll(() => {
  for (const p of ["wave", "main"]) {
    expect(lexgold(["project", "create", p]).status).toBe(0);
    expect(lexgold(["import", file("c.xml", xml), "--project", p, "-q"]).status).toBe(0);
  }
  // Study 1 of "wave" and two participants as its join leaves them; B rejected and left out of the gold.
  const sql = new Database(db);
  try {
    const wave = (sql.prepare("select id from projects where name = 'wave'").get() as { id: number }).id;
    const study = Number(sql.prepare("insert into studies (project_id, token, name, platform, batch_size, overlap, minutes) values (?, 'cli-crowd-token', 'pilot', 'prolific', 2, 2, 30)").run(wave).lastInsertRowid);
    expect(study).toBe(1);
    const ref = (iid: string) => (sql.prepare("select id from instances where project_id = ? and instance_id = ?").get(wave, iid) as { id: number }).id;
    for (const [name, answers] of [
      [A, { k1: ["eager"], k2: ["sharp"] }],
      [B, { k1: ["xylophone"] }],
    ] as const) {
      const user = Number(sql.prepare("insert into users (name, password_hash, role) values (?, '!', 'participant')").run(name).lastInsertRowid);
      sql.prepare("insert into memberships (project_id, user_id, role) values (?, ?, 'annotator')").run(wave, user);
      const pid = name.split(":")[2];
      const participant = Number(sql.prepare("insert into participants (study_id, project_id, user_id, platform_id, joined_at, state) values (?, ?, ?, ?, ?, 'finished')").run(study, wave, user, pid, Date.now()).lastInsertRowid);
      for (const [iid, subs] of Object.entries(answers)) {
        sql.prepare("insert into responses (project_id, instance_ref, user_id, kind, substitutes, revision, updated_at) values (?, ?, ?, 'substitutes', ?, 1, ?)").run(wave, ref(iid), user, JSON.stringify(subs), Date.now());
      }
      if (name === B) sql.prepare("insert into participant_exclusions (project_id, participant_id, decided_at) values (?, ?, ?)").run(wave, participant, Date.now());
    }
  } finally {
    sql.close();
  }
});

describe("lexgold responses import of a crowd study's export", () => {
  it("reads the participants' lines as theirs in another project, refuses the one left out of the gold, and says what does not carry", () => {
    // The command line's export keeps every answer as given; the participant left out of the gold is marked so.
    const exported = lexgold(["responses", "export", "--project", "wave"]);
    expect(exported.status).toBe(0);
    const lines = exported.stdout.split("\n");
    expect(lines[0]).toBe("annotator\tlexelt\tinstance\tanswer\tmultiword\tadjudicated\tadjudication");
    expect(lines.slice(1)).toEqual([
      `${A}\tkeen.a\tk1\teager\t\t\t`,
      expect.stringMatching(new RegExp(`^${B}\\tkeen\\.a\\tk1\\txylophone\\t\\tLEFT OUT\\tparticipant left out of the gold by command line `)),
      `${A}\tkeen.a\tk2\tsharp\t\t\t`,
      "",
    ]);
    const tsv = file("wave.tsv", exported.stdout);
    const dry = lexgold(["responses", "import", tsv, "--project", "main", "--dry-run"]);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(`refuse (1):\n  line 3\t${B}\tkeen.a\tk1\txylophone\t(left out of the gold in "wave" (put their answers back there to carry them))`);
    const r = lexgold(["responses", "import", tsv, "--project", "main"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      'wave.tsv: 3 responses; added 2, updated 0, unchanged 0, refused 1 (1 of participants left out of the gold in their project); read 2 lines of 1 crowd participant of "wave" as theirs (not made members of this project; their review and payments stay with their study).\n',
    );
    const mainExport = lexgold(["responses", "export", "--project", "main"]).stdout;
    expect(mainExport).toBe(`annotator\tlexelt\tinstance\tanswer\tmultiword\n${A}\tkeen.a\tk1\teager\t\n${A}\tkeen.a\tk2\tsharp\t\n`);
    // And main's own export goes in as it is: unchanged now.
    expect(lexgold(["responses", "import", file("cli.tsv", mainExport), "--project", "main"]).stdout).toBe(
      'cli.tsv: 2 responses, all already stored as given; nothing changed; read 2 lines of 1 crowd participant of "wave" as theirs (not made members of this project; their review and payments stay with their study).\n',
    );
  });
});

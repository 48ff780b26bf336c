/** `lexgold user add --role admin`, `lexgold user import FILE.tsv` (all or nothing, each bad line named), and project roles (`member add --role`, `user add --project-role`). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-users-"));
const db = path.join(dir, "cli.db");

function lexgold(args: string[], input?: string) {
  const r = spawnSync(bin, args, { input, encoding: "utf8", env: { ...process.env, LEXGOLD_BCRYPT_COST: "4", LEXGOLD_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const rows = (sql: string) => {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare(sql).all();
  } finally {
    d.close();
  }
};

describe("lexgold user", () => {
  it("adds an admin; refuses a weak password", () => {
    expect(lexgold(["user", "add", "root", "--role", "admin"], "an-admin-password\n").status).toBe(0);
    expect(lexgold(["user", "list"]).stdout).toMatch(/root\s+admin/);
    const weak = lexgold(["user", "add", "weak", "--role", "annotator"], "aaaaaaaaaaaa\n");
    expect(weak.status).not.toBe(0);
    expect(weak.stderr).toMatch(/one character repeated/);
  });

  it("imports accounts from a TSV in one go, printing generated passwords once", () => {
    expect(lexgold(["project", "create", "study"]).status).toBe(0);
    const file = path.join(dir, "people.tsv");
    writeFileSync(file, "name\trole\tproject\tpassword\nimp1\tannotator\tstudy\t\nimp2\tannotator\tstudy\ta-typed-password\nimpc\tcoordinator\t\t\n");
    const r = lexgold(["user", "import", file]);
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout.trim().split("\n").map((l) => l.split("\t"));
    expect(out[0]).toEqual(["name", "role", "project", "password"]);
    expect(out.slice(1).map((c) => c.slice(0, 3))).toEqual([["imp1", "annotator", "study"], ["imp2", "annotator", "study"], ["impc", "coordinator", ""]]);
    expect(out[2][3]).toBe("(as in the file)");
    const generated = out[1][3];
    expect(generated).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const hash = (rows("select password_hash as h from users where name = 'imp1'")[0] as { h: string }).h;
    expect(bcrypt.compareSync(generated, hash)).toBe(true);
    expect(rows("select u.name from memberships m join users u on u.id = m.user_id join projects p on p.id = m.project_id where p.name = 'study' order by u.name")).toEqual([
      { name: "imp1" },
      { name: "imp2" },
    ]);
  });

  it("names every bad line and creates nothing", () => {
    const file = path.join(dir, "bad.tsv");
    writeFileSync(file, "fine1\tannotator\tstudy\t\nimp1\tannotator\tstudy\t\nx y\tannotator\tstudy\t\nfine2\tking\tstudy\t\nfine3\tannotator\tnowhere\t\nfine4\tannotator\tstudy\tshort\nfine1\tannotator\tstudy\t\n");
    const before = rows("select count(*) as n from users");
    const r = lexgold(["user", "import", file]);
    expect(r.status).not.toBe(0);
    const lines = r.stderr.trim().split("\n");
    for (const [n, msg] of [
      [2, /"imp1" already exists/],
      [3, /name "x y"/],
      [4, /role "king"/],
      [5, /no project named "nowhere"/],
      [6, /at least 10 characters/],
      [7, /already on line 1/],
    ] as const) {
      expect(lines.find((l) => l.startsWith(`${file}:${n}: `)), `line ${n}`).toMatch(msg);
    }
    expect(r.stderr).toMatch(/6 bad lines; no account was created/);
    expect(rows("select count(*) as n from users")).toEqual(before);
  });

  it("gives a member a role per project: a judge here, an annotator there; changes it; refuses what cannot be", () => {
    expect(lexgold(["project", "create", "other"]).status).toBe(0);
    const made = lexgold(["user", "add", "jo", "--role", "annotator", "--project", "study", "--project-role", "judge"], "a-judge-password\n");
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toContain(`added "jo" to project "study" as judge`);
    const added = lexgold(["member", "add", "jo", "--project", "other"]);
    expect(added.stdout).toContain(`added "jo" to project "other" as annotator`);
    const roleIn = () => rows("select p.name as project, m.role from memberships m join users u on u.id = m.user_id join projects p on p.id = m.project_id where u.name = 'jo' order by p.name");
    expect(roleIn()).toEqual([{ project: "other", role: "annotator" }, { project: "study", role: "judge" }]);
    const changed = lexgold(["member", "add", "jo", "--project", "other", "--role", "judge"]);
    expect(changed.status, changed.stderr).toBe(0);
    expect(changed.stdout).toContain(`"jo" is a judge in project "other"`);
    expect(roleIn()).toEqual([{ project: "other", role: "judge" }, { project: "study", role: "judge" }]);
    const bad = lexgold(["member", "add", "jo", "--project", "other", "--role", "referee"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/annotator, judge or coordinator, not "referee"/);
    const notCoordinator = lexgold(["member", "add", "jo", "--project", "other", "--role", "coordinator"]);
    expect(notCoordinator.status).not.toBe(0);
    expect(notCoordinator.stderr).toMatch(/Only a coordinator account can coordinate a project/);
    const noProject = lexgold(["user", "add", "kim", "--role", "annotator", "--project-role", "judge"], "a-judge-password\n");
    expect(noProject.status).not.toBe(0);
    expect(noProject.stderr).toMatch(/--project-role needs --project/);
    expect(rows("select count(*) as n from users where name = 'kim'")).toEqual([{ n: 0 }]);
  });
});

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-cli-backup-"));
const live = path.join(dir, "live.db");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function lexgold(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(bin, args, { encoding: "utf8", env: { ...process.env, LEXGOLD_BCRYPT_COST: "4", LEXGOLD_DB: live, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function count(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const fmt = (n: number) => n.toLocaleString("en-US");

describe("lexgold backup and restore", () => {
  beforeAll(() => {
    const r = lexgold(["demo"]);
    expect(r.status, r.stderr).toBe(0);
  });

  it("backs up the database named by $LEXGOLD_DB, printing size, integrity and row counts", () => {
    const bak = path.join(dir, "one.bak");
    const r = lexgold(["backup", bak]);
    expect(r.status, r.stderr).toBe(0);
    const [p, i, res] = ["projects", "instances", "responses"].map((t) => count(live, t));
    expect(res).toBeGreaterThan(0);
    expect(r.stdout).toContain(`backed up ${live} to ${bak}: `);
    expect(r.stdout).toContain(`integrity_check ok; projects ${fmt(p)}, instances ${fmt(i)}, responses ${fmt(res)};`);
    expect(r.stdout).toMatch(new RegExp(`^  response_history +${count(live, "response_history")}$`, "m"));
    expect(r.stdout).toMatch(/\d+(\.\d)? KB \(\d+ pages\)/);
    for (const t of ["projects", "instances", "responses", "users"]) expect(count(bak, t)).toBe(count(live, t));

    const again = lexgold(["backup", bak]);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(`lexgold: ${bak} already exists; give another name, or --force to replace it; nothing was written.\n`);
    expect(lexgold(["backup", bak, "--force", "-q"]).stdout.trim().split("\n")).toHaveLength(1);
  });

  it("restores into --db, refusing to replace a database without --force", () => {
    const bak = path.join(dir, "two.bak");
    expect(lexgold(["backup", bak, "--db", live]).status).toBe(0);
    const target = path.join(dir, "restored.db");
    const r = lexgold(["restore", bak, "--db", target]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`restored ${bak} as ${target}: `);
    expect(count(target, "responses")).toBe(count(live, "responses"));

    // The restored database works: the CLI opens it and lists the demo project.
    expect(lexgold(["project", "list"], { LEXGOLD_DB: target }).stdout).toMatch(/demo/);

    const refused = lexgold(["restore", bak, "--db", target]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/restored\.db already exists; --force replaces that database \(stop the server first\); nothing was written/);
    const forced = lexgold(["restore", bak, "--db", target, "--force"]);
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`restored ${bak} over ${target}`);
  });

  it.each([
    [["restore", "/no/such.bak", "--db", "/tmp/never.db"], /lexgold: \/no\/such\.bak: no such file; nothing was written/],
    [["restore", __filename, "--db", "/tmp/never.db"], /backup\.test\.ts: not an SQLite database \(no SQLite header\); nothing was written/],
    [["backup", "/no/such/dir/x.bak"], /the directory \/no\/such\/dir does not exist/],
    [["backup", path.join(os.tmpdir(), "x.bak"), "--db", "/no/such.db"], /lexgold: \/no\/such\.db: no such file/],
  ])("fails with one line and status 1: %j", (args, message) => {
    const r = lexgold(args as string[]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync("/tmp/never.db")).toBe(false);
  });

  it("prints help for both commands", () => {
    expect(lexgold(["backup", "--help"]).stdout).toMatch(/Usage: lexgold backup \[options\] \[file\][\s\S]*integrity_check[\s\S]*--dir <dir>[\s\S]*--keep <n>/);
    expect(lexgold(["restore", "--help"]).stdout).toMatch(/Usage: lexgold restore \[options\] <file>[\s\S]*--force/);
  });
});

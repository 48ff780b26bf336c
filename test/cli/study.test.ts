/** `lexgold study create | list | pause | open | close`: a crowd study opened from the command line prints its link. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-study-"));
const db = path.join(dir, "cli.db");
const sample = path.resolve(__dirname, "../../samples/demo.xml");

function lexgold(args: string[]) {
  // The link's origin comes from --origin or the quick start's default here, not from the environment.
  const env = { ...process.env, LEXGOLD_DB: db, LEXGOLD_PUBLIC_URL: "", NEXTAUTH_URL: "" };
  const r = spawnSync(bin, args, { encoding: "utf8", env });
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

describe("lexgold study", () => {
  it("opens a Prolific study and prints its link with Prolific's placeholders; refuses a bad field by name", () => {
    expect(lexgold(["project", "create", "crowd"]).status).toBe(0);
    expect(lexgold(["import", sample, "--project", "crowd"]).status).toBe(0);
    const consent = path.join(dir, "consent.md");
    writeFileSync(consent, "# Consent\n\nYou agree to take part.\n");
    const r = lexgold(["study", "create", "--project", "crowd", "--platform", "prolific", "--batch", "10", "--overlap", "3", "--minutes", "45", "--completion-code", "C1A2B3", "--consent", consent, "--name", "pilot", "--origin", "https://lex.example.org"]);
    expect(r.stderr).toBe("");
    const [summary, link] = r.stdout.trimEnd().split("\n");
    expect(summary).toBe('opened study 1 "pilot" on "crowd" (prolific): 40 instances, batches of 10, 3 answers each, 45 minutes a batch');
    const token = (rows("select token from studies")[0] as { token: string }).token;
    expect(link).toBe(`https://lex.example.org/study/${token}?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`);
    expect(rows("select platform, batch_size as b, overlap as k, minutes as m, completion_code as c, consent, state from studies")).toEqual([
      { platform: "prolific", b: 10, k: 3, m: 45, c: "C1A2B3", consent: "# Consent\n\nYou agree to take part.\n", state: "open" },
    ]);
    const bad = lexgold(["study", "create", "--project", "crowd", "--platform", "prolific", "--batch", "0", "--overlap", "3", "--minutes", "45"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/Cannot open the study: Batch size is at least 1\./);
    expect(rows("select count(*) as n from studies")).toEqual([{ n: 1 }]);
  });

  it("a Mechanical Turk study's link is bare (the ExternalQuestion adds the ids); the origin defaults to the quick start's", () => {
    const r = lexgold(["study", "create", "--project", "crowd", "--platform", "mturk", "--batch", "5", "--overlap", "2", "--minutes", "30"]);
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split("\n")[1]).toMatch(/^http:\/\/localhost:3000\/study\/[A-Za-z0-9_-]{22}$/);
  });

  it("lists the studies, pauses, opens and closes one", () => {
    const list = lexgold(["study", "list", "--project", "crowd", "--origin", "https://lex.example.org"]).stdout.trimEnd().split("\n");
    expect(list).toHaveLength(2);
    expect(list[1]).toMatch(/^1\topen\tprolific\tpilot\t0 participants\t0\/40 instances full\t0\/120 places taken\thttps:\/\/lex\.example\.org\/study\//);
    expect(lexgold(["study", "pause", "1"]).stdout).toBe('study 1 "pilot": paused\n');
    expect(lexgold(["study", "close", "1"]).stdout).toBe('study 1 "pilot": closed\n');
    expect(lexgold(["study", "open", "2"]).stdout).toBe("study 2: open\n");
    const missing = lexgold(["study", "pause", "99"]);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/No such study/);
    expect(rows("select id, state from studies order by id")).toEqual([
      { id: 1, state: "closed" },
      { id: 2, state: "open" },
    ]);
  });
});

import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-cli-"));
const db = path.join(dir, "cli.db");

function lexgold(args: string[], input?: string) {
  const r = spawnSync(bin, args, { input, encoding: "utf8", env: { ...process.env, LEXGOLD_BCRYPT_COST: "4", LEXGOLD_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("bin/lexgold", () => {
  it("creates a project, imports a file, adds a user, and lists them", () => {
    expect(lexgold(["project", "create", "study"]).status).toBe(0);
    const xml = path.join(dir, "c.xml");
    writeFileSync(
      xml,
      `<?xml version="1.0"?>\n<!DOCTYPE corpus SYSTEM "lexsub.dtd">\n<corpus lang="english"><lexelt item="coat.n">\n<instance id="1"><context>a warm <head>coat</head> &#8221 ;</context></instance>\n</lexelt></corpus>\n`,
    );
    const imp = lexgold(["import", xml, "--project", "study"]);
    expect(imp.status).toBe(0);
    expect(imp.stdout).toMatch(/c\.xml:4: warning: repaired "&#8221 ;"/);
    expect(imp.stdout).toMatch(/1 instance in 1 lexelt; added 1 instance and 1 lexelt/);
    expect(lexgold(["import", xml, "--project", "study", "-q"]).stdout).toMatch(/already in the project; nothing added/);

    const add = lexgold(["user", "add", "ann", "--role", "annotator", "--project", "study"], "a-long-password\n");
    expect(add.status).toBe(0);
    expect(lexgold(["user", "list"]).stdout).toMatch(/ann\s+annotator/);
    expect(lexgold(["project", "list"]).stdout).toMatch(/study/);
  });

  it("renames, archives, brings back and deletes a project, asking for its name and saying what goes", () => {
    expect(lexgold(["project", "create", "old-name"]).status).toBe(0);
    expect(lexgold(["project", "rename", "old-name", "pilot"]).stdout).toBe('renamed project "old-name" to "pilot"\n');
    expect(lexgold(["project", "archive", "pilot"]).stdout).toMatch(/^"pilot" is archived \(since \d{4}-\d\d-\d\d \d\d:\d\d UTC\)$/m);
    expect(lexgold(["project", "list"]).stdout).toMatch(/^pilot\t0 lexelts\t0 instances\tarchived \d{4}-\d\d-\d\d$/m);
    expect(lexgold(["project", "unarchive", "pilot"]).stdout).toBe('"pilot" is no longer archived\n');
    // Without a terminal and without --confirm, nothing is deleted.
    const asked = lexgold(["project", "delete", "pilot"]);
    expect(asked.status).toBe(1);
    expect(asked.stderr).toMatch(/Deleting "pilot" removes, for good:\n {2}0 lexelts with 0 instances\n[\s\S]*Make a backup first/);
    expect(asked.stderr).toMatch(/nothing was deleted: give --confirm "pilot"/);
    expect(lexgold(["project", "delete", "pilot", "--confirm", "Pilot"]).stderr).toMatch(/type its name, "pilot", exactly; nothing was deleted/);
    expect(lexgold(["project", "list"]).stdout).toMatch(/^pilot\t/m);
    const deleted = lexgold(["project", "delete", "pilot", "--confirm", "pilot"]);
    expect(deleted.stdout).toBe('deleted project "pilot"\n');
    expect(lexgold(["project", "list"]).stdout).not.toMatch(/^pilot\t/m);
  });

  it.each([
    [["import", "/no/such.xml", "--project", "study"], /lexgold: cannot read \/no\/such\.xml: no such file/],
    [["import", __filename, "--project", "nope"], /lexgold: No project named "nope"/],
    [["user", "add", "x", "--role", "king"], /lexgold: .*[Rr]ole/],
    [["frobnicate"], /unknown command/],
  ])("fails with one line and a non-zero status: %j", (args, message) => {
    const r = lexgold(args as string[], "short\n");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });

  it("refuses a bad file naming its line, and writes nothing", () => {
    lexgold(["project", "create", "bad"]);
    const xml = path.join(dir, "bad.xml");
    writeFileSync(xml, `<?xml version="1.0"?>\n<corpus><lexelt item="a.n">\n<instance id="1"><context>no head</context></instance>\n</lexelt></corpus>\n`);
    const r = lexgold(["import", xml, "--project", "bad"]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/bad\.xml:3: .*instance "1" has no <head>/);
    expect(lexgold(["project", "list"]).stdout).toMatch(/bad\s+0 lexelts\s+0 instances|bad\b.*\b0\b/);
  });

  it("prints help for every command", () => {
    for (const cmd of [[], ["project"], ["import"], ["user"], ["demo"]]) {
      const r = lexgold([...cmd, "--help"]);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/Usage: lexgold/);
    }
  });
});

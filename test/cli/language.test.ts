/** `lexgold project create NAME --language TAG` and `project set NAME --language TAG`: a BCP 47 tag, `en` unless given. */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-language-"));
const db = path.join(dir, "cli.db");

function lexgold(args: string[]) {
  const r = spawnSync(bin, args, { encoding: "utf8", env: { ...process.env, LEXGOLD_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const languages = () => {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare("select name, language from projects order by name").all();
  } finally {
    d.close();
  }
};

describe("lexgold project --language", () => {
  it("creates projects in English by default or in the language given, canonical; refuses a tag that is not BCP 47", () => {
    expect(lexgold(["project", "create", "english"]).stdout).toBe('created project "english" (language en); no coordinator yet (lexgold member add USER --project english --role coordinator)\n');
    expect(lexgold(["project", "create", "german", "--language", "DE"]).stdout).toMatch(/^created project "german" \(language de\); /);
    const bad = lexgold(["project", "create", "nope", "--language", "de_DE"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/"de_DE" is not a BCP 47 language tag/);
    expect(languages()).toEqual([
      { name: "english", language: "en" },
      { name: "german", language: "de" },
    ]);
  });

  it("sets a project's language; a bad tag changes nothing", () => {
    expect(lexgold(["project", "set", "english", "--language", "pt-br"]).stdout).toBe('"english": language pt-BR\n');
    const bad = lexgold(["project", "set", "german", "--language", "!"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/Cannot set the language/);
    expect(languages()).toEqual([
      { name: "english", language: "pt-BR" },
      { name: "german", language: "de" },
    ]);
  });
});

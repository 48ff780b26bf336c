/**
 * SQL text names no schema table by hand: statements kept as text (prepared once, on the
 * hot paths) take their tables and columns from db/schema.ts through db/sql-names.ts, or
 * are drizzle queries, so renaming a column changes the text or fails the type check
 * instead of breaking at run time. This reads the sources of the data access layer and
 * fails on `from|join|into|update|table <schema table>` written as text, outside the
 * deliberate exceptions below.
 */
import fs from "node:fs";
import path from "node:path";
import { getTableName, is, Table } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";

const ROOT = path.resolve(__dirname, "../..");
const DIRS = ["lib/server", "lib/auth", "db"];
/** Migrations are SQL by nature (drizzle/ holds them; db/migrations is kept out should one appear). */
const SKIP_DIRS = ["db/migrations"];

/** Deliberate exceptions: file → the schema tables it may name as text, and why. */
const EXCEPTIONS: Record<string, { tables: string[]; why: string }> = {
  "db/client.ts": {
    tables: ["users"],
    why: "the migration runner checks users for names that differ only in case before the migration that makes them unique: it reads the database as it is, not as schema.ts says it will be",
  },
};

const TABLES = (Object.values(schema) as unknown[]).flatMap((v) => (is(v, Table) ? [getTableName(v)] : []));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.includes(rel)) out.push(...sources(rel));
    } else if (/\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** The source without comments (line and block), so prose about tables does not count. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " ")).replace(/^\s*\/\/.*$/gm, "");
}

const NAMED = new RegExp(`\\b(?:from|join|into|update|table(?: if (?:not )?exists)?)\\s+["\`]?(${TABLES.join("|")})\\b(?!["\`]?\\s*[.(])`, "gi");

function rawTableNames(file: string): Array<{ line: number; table: string; text: string }> {
  const text = code(fs.readFileSync(path.join(ROOT, file), "utf8"));
  const hits: Array<{ line: number; table: string; text: string }> = [];
  for (const m of text.matchAll(NAMED)) {
    const line = text.slice(0, m.index).split("\n").length;
    hits.push({ line, table: m[1].toLowerCase(), text: text.split("\n")[line - 1].trim().slice(0, 160) });
  }
  return hits;
}

describe("raw SQL in the data access layer", () => {
  it("knows the schema's tables", () => {
    expect(TABLES).toContain("responses");
    expect(TABLES).toContain("lexelts");
  });

  it("names no schema table as text outside the exceptions", () => {
    const offences: string[] = [];
    for (const file of DIRS.flatMap(sources)) {
      const allowed = EXCEPTIONS[file]?.tables ?? [];
      for (const h of rawTableNames(file)) if (!allowed.includes(h.table)) offences.push(`${file}:${h.line}: ${h.table} — ${h.text}`);
    }
    expect(offences, "use db/sql-names.ts (named(table)) or a drizzle query instead").toEqual([]);
  });

  it("keeps its exceptions current", () => {
    for (const [file, { tables }] of Object.entries(EXCEPTIONS)) {
      const found = new Set(rawTableNames(file).map((h) => h.table));
      for (const t of tables) expect(found.has(t), `${file} no longer names ${t}: drop the exception`).toBe(true);
    }
  });

  it("catches a table named as text", () => {
    const sample = code('const st = db.prepare("select id from responses where user_id = ?");\n// from lexelts in a comment\n');
    expect([...sample.matchAll(NAMED)].map((m) => m[1])).toEqual(["responses"]);
  });
});

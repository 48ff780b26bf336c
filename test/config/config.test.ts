/**
 * lib/config/index.ts is the one home of the environment's settings: the only reader of process.env in
 * app/, lib/ and db/, every setting the code names is defined there, the settings table of
 * docs/operating.md lists exactly its settings that are not internal, and a setting takes a new value as soon as the
 * variable changes (tests and benchmarks set them at run time).
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, parseLimit, SETTINGS, type SettingName, setting } from "../../lib/config";
import { LIMIT_SETTINGS } from "../../lib/server/kernel/rate-limit";

const ROOT = path.resolve(__dirname, "../..");
const NAMES = Object.keys(SETTINGS) as SettingName[];

function sources(dir: string, exts = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel, exts));
    else if (exts.test(e.name)) out.push(rel);
  }
  return out;
}

/** A read of process.env other than the NODE_ENV / NEXT_RUNTIME checks Next inlines at build time. */
const ENV_READ = /\bprocess\s*(?:\.\s*env\b(?!\s*\.\s*(?:NODE_ENV|NEXT_RUNTIME)\b)|\[\s*["'`]env["'`]\s*\])|\{[^}]*\benv\b[^}]*\}\s*=\s*(?:globalThis\.)?process\b/;

/** The settings table's home: the operator's guide. */
const SETTINGS_DOC = "docs/operating.md";

/** The variables in the settings table (first column; a cell may name several). */
function tableVariables(): Set<string> {
  const readme = fs.readFileSync(path.join(ROOT, SETTINGS_DOC), "utf8");
  const start = readme.indexOf("| Variable | Meaning | Default |");
  expect(start, `the settings table in ${SETTINGS_DOC}`).toBeGreaterThanOrEqual(0);
  const rows = readme.slice(start).split("\n").slice(2);
  const names = new Set<string>();
  for (const row of rows) {
    if (!row.startsWith("|")) break;
    for (const m of row.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]);
  }
  return names;
}

describe("one reader of the environment", () => {
  it("no file in app/, lib/ (but lib/config/index.ts) or db/ reads process.env", () => {
    const offenders: string[] = [];
    for (const file of [...sources("app"), ...sources("lib"), ...sources("db")]) {
      if (file === "lib/config/index.ts") continue;
      fs.readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (ENV_READ.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders, "read settings through lib/config/index.ts (setting(NAME))").toEqual([]);
  });

  it("the check sees the ways of reading it", () => {
    for (const read of ["process.env.LEXGOLD_DB", 'process.env["PORT"]', "process.env[name]", "{ ...process.env }", "const { env } = process;", "process['env'].X"]) {
      expect(ENV_READ.test(read), read).toBe(true);
    }
    for (const ok of ['process.env.NODE_ENV === "production"', 'process.env.NEXT_RUNTIME !== "nodejs"', "setting(\"LEXGOLD_DB\")"]) expect(ENV_READ.test(ok), ok).toBe(false);
  });

  it("every variable the code names is defined in lib/config/index.ts", () => {
    const named = new Set<string>();
    const files = [...sources("app"), ...sources("lib"), ...sources("db"), ...sources("bin"), ...sources("scripts"), "proxy.ts", "instrumentation.ts", "next.config.ts"];
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const m of text.matchAll(/process\.env\.((?:LEXGOLD|NEXTAUTH)_[A-Z0-9_]+)|["'`]((?:LEXGOLD|NEXTAUTH)_[A-Z0-9_]+)["'`]/g)) named.add(m[1] ?? m[2]);
    }
    expect([...named].filter((n) => !(n in SETTINGS)).sort()).toEqual([]);
  });
});

describe("the settings table (docs/operating.md)", () => {
  it("lists every setting that is not internal, and nothing else", () => {
    const documented = NAMES.filter((n) => !(SETTINGS[n] as { internal?: boolean }).internal).sort();
    const inTable = [...tableVariables()].sort();
    expect({ missingFromTable: documented.filter((n) => !inTable.includes(n)), notInConfig: inTable.filter((n) => !(n in SETTINGS)) }).toEqual({
      missingFromTable: [],
      notInConfig: [],
    });
    const internal = NAMES.filter((n) => (SETTINGS[n] as { internal?: boolean }).internal);
    expect(internal.filter((n) => inTable.includes(n)), "internal settings stay out of the table").toEqual([]);
  });
});

describe("setting()", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of NAMES) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    vi.restoreAllMocks();
  });

  it("gives the default when unset or empty, and a new value as soon as the variable changes", () => {
    delete process.env.LEXGOLD_JOB_THREADS;
    expect(setting("LEXGOLD_JOB_THREADS")).toBe(1);
    process.env.LEXGOLD_JOB_THREADS = "3";
    expect(setting("LEXGOLD_JOB_THREADS")).toBe(3);
    process.env.LEXGOLD_JOB_THREADS = " ";
    expect(setting("LEXGOLD_JOB_THREADS")).toBe(1);
    process.env.LEXGOLD_MAX_QUEUED_UPLOAD_MB = "0.5";
    expect(setting("LEXGOLD_MAX_QUEUED_UPLOAD_MB")).toBe(0.5);
    process.env.LEXGOLD_DERIVE_THREADS = "0";
    expect(setting("LEXGOLD_DERIVE_THREADS")).toBe(false);
    delete process.env.LEXGOLD_DERIVE_THREADS;
    expect(setting("LEXGOLD_DERIVE_THREADS")).toBe(true);
  });

  it("refuses a bad value with an error naming the variable and what it takes", () => {
    for (const [name, bad] of [
      ["LEXGOLD_JOB_THREADS", "two"],
      ["LEXGOLD_JOB_THREADS", "1.5"],
      ["LEXGOLD_BCRYPT_COST", "3"],
      ["LEXGOLD_MAX_IMPORT_BYTES", "-1"],
      ["LEXGOLD_SIGNIN_LIMIT", "many"],
      ["LEXGOLD_HASH_THREADS", "0"],
    ] as const) {
      process.env[name] = bad;
      expect(() => setting(name)).toThrow(ConfigError);
      expect(() => setting(name)).toThrow(new RegExp(`^${name} must be .*, not "${bad.replace(".", "\\.")}"$`));
    }
  });

  it("a bad rate limit says so on stderr and keeps the default", () => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((m: string) => void errors.push(m));
    process.env.LEXGOLD_SAVE_RATE = "fast";
    expect(setting("LEXGOLD_SAVE_RATE")).toEqual({ rate: 5, burst: 30 });
    expect(errors.join("\n")).toMatch(/LEXGOLD_SAVE_RATE must be "RATE,BURST".*not "fast"; using 5,30/);
    process.env.LEXGOLD_SAVE_RATE = "off";
    expect(setting("LEXGOLD_SAVE_RATE")).toBeNull();
    process.env.LEXGOLD_SAVE_RATE = "2,9";
    expect(setting("LEXGOLD_SAVE_RATE")).toEqual({ rate: 2, burst: 9 });
  });

  it("every setting's default is what its parser gives for the default's own text, where it has one", () => {
    for (const name of NAMES) {
      const s = SETTINGS[name] as { default: unknown; schema: { safeParse(v: string): { success: boolean; data?: unknown } } };
      if (typeof s.default === "number" || typeof s.default === "string") {
        if (s.default === "") continue;
        const r = s.schema.safeParse(String(s.default));
        expect(r.success && r.data, name).toBe(s.default);
      }
    }
    for (const name of ["LEXGOLD_SAVE_RATE", "LEXGOLD_ADDRESS_SAVE_RATE", "LEXGOLD_PAGE_RATE", "LEXGOLD_ADDRESS_PAGE_RATE"] as const) {
      const d = SETTINGS[name].default!;
      expect(parseLimit(`${d.rate},${d.burst}`, name, { rate: 1, burst: 1 })).toEqual(d);
    }
    // The rate limiter names its defaults in its messages: the same as here.
    for (const { env, fallback } of Object.values(LIMIT_SETTINGS)) expect(fallback, env).toEqual(SETTINGS[env].default);
  });
});

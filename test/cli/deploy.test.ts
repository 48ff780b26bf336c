/**
 * Running lexgold for a study from the command line: `init` from nothing,
 * `start` refusing (with the reasons) before it would serve, `doctor`, and
 * `backup --dir --keep`. The serving itself, over HTTP, is e2e/production.spec.ts.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../../bin/lexgold");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-cli-deploy-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const PASSWORD = "correct-horse-battery";
let n = 0;

/** A fresh directory for one installation: database and secret paths inside it, nothing created yet. */
function site() {
  const dir = path.join(root, `site-${++n}`);
  fs.mkdirSync(dir);
  return { dir, db: path.join(dir, "data", "study.db"), secret: path.join(dir, "secret"), backups: path.join(dir, "backups") };
}
type Site = ReturnType<typeof site>;

function lexgold(s: Site, args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) {
  const env: Record<string, string | undefined> = { ...process.env, LEXGOLD_BCRYPT_COST: "4", LEXGOLD_DB: s.db, LEXGOLD_SECRET_FILE: s.secret, ...options.env };
  for (const k of ["NEXTAUTH_URL", "LEXGOLD_PUBLIC_URL", "NEXTAUTH_SECRET", "LEXGOLD_HOST", "PORT", "LEXGOLD_BACKUP_DIR"]) if (!(k in (options.env ?? {}))) delete env[k];
  const r = spawnSync(bin, args, { input: options.input ?? "", encoding: "utf8", env: env as NodeJS.ProcessEnv });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);

function initialised(): Site {
  const s = site();
  const r = lexgold(s, ["init", "boss"], { input: `${PASSWORD}\n` });
  expect(r.status, r.stderr).toBe(0);
  return s;
}

function query<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

// Each bin/lexgold run starts tsx: seconds apiece on a busy machine.
const SLOW = { timeout: 300_000 };

describe("lexgold init", SLOW, () => {
  it("creates the database, the first coordinator and the secret, all 0600, from nothing", () => {
    const s = site();
    const r = lexgold(s, ["init", "boss"], { input: `${PASSWORD}\n` });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`created ${s.db} (mode 600) with the coordinator "boss"`);
    expect(r.stdout).toContain(`session secret: ${s.secret} (written, mode 600)`);
    expect(query<{ name: string; role: string }>(s.db, "select name, role from users")).toEqual([{ name: "boss", role: "coordinator" }]);
    expect(query(s.db, "select * from projects")).toEqual([]);
    for (const f of [s.db, s.secret]) expect(mode(f), f).toBe("600");
    expect(fs.readFileSync(s.secret, "utf8").trim().length).toBeGreaterThanOrEqual(32);
    // The password is never an argument and never printed.
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    // The account signs in with it (checked through the data layer the server uses).
    const hash = query<{ h: string }>(s.db, "select password_hash as h from users")[0].h;
    expect(hash).toMatch(/^\$2[aby]\$/);
  });

  it("makes its account the study's coordinator: it coordinates every project made after it, --coordinator adds another (#40)", () => {
    const s = initialised();
    expect(lexgold(s, ["user", "add", "cora", "--role", "coordinator"], { input: `${PASSWORD}\n` }).status).toBe(0);
    const plain = lexgold(s, ["project", "create", "pilot"]);
    expect(plain.stdout).toBe('created project "pilot" (language en); coordinated by boss\n');
    const asked = lexgold(s, ["project", "create", "main", "--coordinator", "cora"]);
    expect(asked.stdout).toBe('created project "main" (language en); coordinated by boss, cora\n');
    const members = query<{ project: string; user: string; role: string }>(
      s.db,
      "select p.name as project, u.name as user, m.role from memberships m join projects p on p.id = m.project_id join users u on u.id = m.user_id order by p.name, u.name",
    );
    expect(members).toEqual([
      { project: "main", user: "boss", role: "coordinator" },
      { project: "main", user: "cora", role: "coordinator" },
      { project: "pilot", user: "boss", role: "coordinator" },
    ]);
    const bad = lexgold(s, ["project", "create", "third", "--coordinator", "nobody"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/No user named "nobody"; nothing was created/);
    expect(query(s.db, "select name from projects where name = 'third'")).toEqual([]);
  });

  it("refuses a database that already has accounts, changing nothing", () => {
    const s = initialised();
    const secret = fs.readFileSync(s.secret, "utf8");
    const r = lexgold(s, ["init", "second"], { input: `${PASSWORD}\n` });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `lexgold: ${s.db} already has 1 account; init only starts an empty database (use \`lexgold user add\` for more accounts); nothing was written.\n`,
    );
    expect(query<{ name: string }>(s.db, "select name from users").map((u) => u.name)).toEqual(["boss"]);
    expect(fs.readFileSync(s.secret, "utf8")).toBe(secret);
  });

  it.each([
    ["a short password", "nine-char", /at least 10 characters/],
    ["one character repeated", "xxxxxxxxxxxxxxxx", /one character repeated/],
    ["no password at all", "", /at least 10 characters/],
    ["a bad name", PASSWORD, /letters, digits/],
  ])("refuses %s and writes nothing", (what, password, message) => {
    const s = site();
    const r = lexgold(s, ["init", what === "a bad name" ? "two words" : "boss"], { input: `${password}\n` });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync(s.db)).toBe(false);
    expect(fs.existsSync(s.secret)).toBe(false);
  });

  it("takes a password piped twice (as the terminal asks twice) as one line, and refuses two different lines", async () => {
    const { compareSync } = await import("bcryptjs");
    const s = site();
    const r = lexgold(s, ["init", "boss"], { input: `${PASSWORD}\n${PASSWORD}\n` });
    expect(r.status, r.stderr).toBe(0);
    const [{ hash }] = query<{ hash: string }>(s.db, "select password_hash as hash from users where name = 'boss'");
    expect(compareSync(PASSWORD, hash)).toBe(true);
    const other = site();
    const refused = lexgold(other, ["init", "boss"], { input: `${PASSWORD}\nsomething-else-entirely\n` });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("stdin holds two different lines, and a password is one line");
    expect(fs.existsSync(other.db)).toBe(false);
  });

  it("user reset gives a coordinator locked out a generated password, printed once; an unknown name is refused", async () => {
    const { compareSync } = await import("bcryptjs");
    const s = initialised();
    const r = lexgold(s, ["user", "reset", "Boss"]);
    expect(r.status, r.stderr).toBe(0);
    const fresh = r.stdout.trim();
    expect(fresh.length).toBeGreaterThanOrEqual(10);
    expect(r.stderr).toContain('new password for "boss" above');
    const [{ hash }] = query<{ hash: string }>(s.db, "select password_hash as hash from users where name = 'boss'");
    expect(compareSync(fresh, hash)).toBe(true);
    expect(compareSync(PASSWORD, hash)).toBe(false);
    const unknown = lexgold(s, ["user", "reset", "nobody"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no account named "nobody"');
  });

  it("takes the password only from stdin: an extra argument is refused", () => {
    const s = site();
    const r = lexgold(s, ["init", "boss", PASSWORD]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/too many arguments/);
    expect(fs.existsSync(s.db)).toBe(false);
  });
});

describe("lexgold start refuses, naming what is missing", SLOW, () => {
  it("without init: no database and no secret", () => {
    const s = site();
    const r = lexgold(s, ["start", "--port", "9"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("lexgold: cannot start:\n");
    expect(r.stderr).toContain(`  - no database at ${s.db}: create it with \`lexgold init NAME\``);
    expect(r.stderr).toContain(`  - no session secret at ${s.secret} (and NEXTAUTH_SECRET is unset): \`lexgold init\` writes one.`);
    expect(r.stdout).not.toMatch(/serving/);
    // Refusing created nothing.
    expect(fs.existsSync(s.db)).toBe(false);
    expect(fs.existsSync(path.dirname(s.db))).toBe(false);
  });

  it("a database without accounts", () => {
    const s = site();
    fs.mkdirSync(path.dirname(s.db));
    expect(lexgold(s, ["project", "list"]).status).toBe(0); // opens (creates) an empty database
    const r = lexgold(s, ["start", "--port", "9"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`  - no account in ${s.db}: create the first coordinator with \`lexgold init NAME\` (or LEXGOLD_INIT_USER with LEXGOLD_INIT_PASSWORD_FILE).`);
  });

  it("the quick start's demo database", () => {
    const s = initialised();
    expect(lexgold(s, ["demo"]).status).toBe(0);
    const r = lexgold(s, ["start", "--port", "9"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/holds the quick start's demo accounts \(coordinator, annotator1, .*annotator5\) with the published password/);
  });

  it("a non-loopback address without the public URL; with it, that reason goes", () => {
    const s = initialised();
    const open = lexgold(s, ["start", "--host", "0.0.0.0", "--port", "9"]);
    expect(open.status).toBe(1);
    expect(open.stderr).toContain("  - the public URL is unset, and 0.0.0.0 is not a loopback address: set NEXTAUTH_URL (or LEXGOLD_PUBLIC_URL)");
    expect(open.stderr).not.toMatch(/no database|no account|no session secret/);
    const named = lexgold(s, ["start", "--host", "0.0.0.0", "--port", "9"], { env: { LEXGOLD_PUBLIC_URL: "https://lexgold.example.org", NEXT_DIST_DIR: ".no-build-here" } });
    expect(named.stderr).not.toMatch(/public URL is unset/);
    expect(named.stderr).toContain(`  - no production build in ${path.resolve(import.meta.dirname, "../..", ".no-build-here")}: run \`npm run build\` first.`);
    const bad = lexgold(s, ["start", "--port", "9"], { env: { NEXTAUTH_URL: "lexgold.example.org" } });
    expect(bad.stderr).toContain('  - NEXTAUTH_URL is not a URL: "lexgold.example.org"');
  });
});

describe("lexgold start the container's way (issue #42)", SLOW, () => {
  const noBuild = { NEXT_DIST_DIR: ".no-build-here" };

  it("creates the first coordinator from LEXGOLD_INIT_USER and a password file, once; the file's first line is the password", () => {
    const s = site();
    const file = path.join(s.dir, "password");
    fs.writeFileSync(file, `${PASSWORD}\nignored second line\n`);
    const env = { ...noBuild, LEXGOLD_INIT_USER: "alice", LEXGOLD_INIT_PASSWORD_FILE: file };
    const first = lexgold(s, ["start", "--port", "9"], { env });
    expect(first.stdout).toContain(`lexgold: created ${s.db} with the coordinator "alice" (LEXGOLD_INIT_USER)`);
    // It went on to the checks: only the missing build stops it.
    expect(first.stderr).toMatch(/no production build/);
    expect(first.stderr).not.toMatch(/no account|no session secret/);
    expect(mode(s.db)).toBe("600");
    expect(mode(s.secret)).toBe("600");
    const users = () => new Database(s.db, { readonly: true }).prepare("select name, role from users").all();
    expect(users()).toEqual([{ name: "alice", role: "coordinator" }]);
    // The password is the file's first line: the account signs in with it (checked by the CLI's own reset refusing nothing here).
    const again = lexgold(s, ["start", "--port", "9"], { env: { ...env, LEXGOLD_INIT_USER: "bob" } });
    expect(again.stdout).not.toMatch(/created/);
    expect(users()).toEqual([{ name: "alice", role: "coordinator" }]);
  });

  it("refuses LEXGOLD_INIT_USER without a password, or with both kinds, or with a weak one, writing nothing", () => {
    for (const [extra, message] of [
      [{}, /LEXGOLD_INIT_USER is alice, but no password is given: .*there is no default password/],
      [{ LEXGOLD_INIT_PASSWORD: PASSWORD, LEXGOLD_INIT_PASSWORD_FILE: "/nowhere" }, /both set: set one/],
      [{ LEXGOLD_INIT_PASSWORD_FILE: "/nowhere/password" }, /LEXGOLD_INIT_PASSWORD_FILE: cannot read \/nowhere\/password \(ENOENT\)/],
      [{ LEXGOLD_INIT_PASSWORD: "password12" }, /password/i],
    ] as const) {
      const s = site();
      const r = lexgold(s, ["start", "--port", "9"], { env: { ...noBuild, LEXGOLD_INIT_USER: "alice", ...extra } });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(fs.existsSync(s.db)).toBe(false);
    }
  });

  it("refuses a folder it cannot make or write, naming it, before anything is created (the unwritable volume: npm run test:container)", () => {
    const s = site();
    const blocker = path.join(s.dir, "data");
    fs.writeFileSync(blocker, "a file where the database's folder should be");
    const r = lexgold(s, ["start", "--port", "9"], { env: { ...noBuild, LEXGOLD_INIT_USER: "alice", LEXGOLD_INIT_PASSWORD: PASSWORD } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("lexgold: cannot start:\n");
    expect(r.stderr).toContain(`  - ${blocker} (the database's folder) is not a folder: move it away, or point the setting elsewhere. Nothing was started.`);
    expect(fs.statSync(blocker).isFile()).toBe(true);
  });

  it("backs an older database up before its migrations run, and not again once it is current", () => {
    const s = site();
    fs.mkdirSync(path.dirname(s.db));
    fs.copyFileSync(path.resolve(import.meta.dirname, "../fixtures/lexgold-0001.db"), s.db);
    const before = fs.readFileSync(s.db);
    const r = lexgold(s, ["start", "--port", "9"], { env: noBuild });
    const m = /lexgold: (\d+) migrations? to run \(0002_[^)]*\): backed up first to (\S+)/.exec(r.stdout);
    expect(m, r.stdout + r.stderr).not.toBeNull();
    const backup = m![2];
    expect(path.dirname(backup)).toBe(path.join(path.dirname(s.db), "backups"));
    expect(mode(backup)).toBe("600");
    // The backup is the database as it was: the same tables and rows as the fixture before migrating.
    const count = (f: string | Buffer) => {
      const d = new Database(f, { readonly: true });
      try {
        return (d.prepare("select count(*) as n from __drizzle_migrations").get() as { n: number }).n;
      } finally {
        d.close();
      }
    };
    expect(count(backup)).toBe(count(before));
    expect(count(s.db)).toBeGreaterThan(count(before));
    const again = lexgold(s, ["start", "--port", "9"], { env: noBuild });
    expect(again.stdout).not.toMatch(/backed up first/);
    expect(fs.readdirSync(path.dirname(backup))).toHaveLength(1);
  });
});

describe("lexgold doctor", SLOW, () => {
  it("passes a fresh installation, warns about readable files (exit 2), fails a newer database (exit 1)", () => {
    const s = initialised();
    expect(lexgold(s, ["backup", "--dir", s.backups]).status).toBe(0);
    const ok = lexgold(s, ["doctor", "--backups", s.backups]);
    expect(ok.status, ok.stdout).toBe(0);
    expect(ok.stdout).toMatch(/^ok {4}integrity {4}.*integrity_check ok$/m);
    expect(ok.stdout).toMatch(/^ok {4}migrations {3}all \d+ migrations applied$/m);
    expect(ok.stdout).toMatch(/^ok {4}backups {6}1 backup in /m);
    expect(ok.stdout).toMatch(/^ok {4}disk {9}[\d.]+ [KMG]B free under /m);
    expect(ok.stdout.trim().split("\n").at(-1)).toBe("all checks passed");

    fs.chmodSync(s.db, 0o644);
    fs.chmodSync(s.secret, 0o640);
    const beside = () => fs.readdirSync(path.dirname(s.db)).sort();
    const filesBefore = beside();
    const loose = lexgold(s, ["doctor", "--backups", s.backups]);
    expect(loose.status).toBe(2);
    expect(loose.stdout).toContain(`WARN  permissions  database ${s.db} is readable by group or others (mode 644): chmod 600 ${s.db}`);
    expect(loose.stdout).toContain(`WARN  permissions  session secret ${s.secret} is readable by group or others (mode 640): chmod 600 ${s.secret}`);
    // doctor creates no -wal or -shm of its own (issue #27, finding 12), so none appears with the database's new mode.
    expect(beside()).toEqual(filesBefore);
    expect(loose.stdout).not.toMatch(/(write-ahead log|shared-memory index) .* is readable by group or others/);
    expect(loose.stdout.trim().split("\n").at(-1)).toBe("0 failed, 2 to fix");

    const raw = new Database(s.db);
    raw.prepare("insert into __drizzle_migrations (hash, created_at) values ('newer', ?)").run(Date.now() + 365 * 86_400_000);
    raw.close();
    const newer = lexgold(s, ["doctor", "--backups", s.backups]);
    expect(newer.status).toBe(1);
    expect(newer.stdout).toContain(`FAIL  migrations   ${s.db} was written by a newer lexgold (1 migration this lexgold does not know): upgrade lexgold`);
    // The CLI's other commands refuse it too, with the message.
    const list = lexgold(s, ["project", "list"]);
    expect(list.status).toBe(1);
    expect(list.stderr).toMatch(/was written by a newer lexgold: it records 1 migration this lexgold does not know/);
  });

  it("a restore drill's copy (--db another database) is not warned for having no backups; --no-backups skips the check", () => {
    const s = initialised();
    expect(lexgold(s, ["backup", "--dir", s.backups]).status).toBe(0);
    const drill = path.join(path.dirname(s.db), "drill.db");
    const latest = fs.readdirSync(s.backups).filter((f) => f.endsWith(".db"))[0];
    expect(lexgold(s, ["restore", path.join(s.backups, latest), "--db", drill]).status).toBe(0);
    fs.chmodSync(drill, 0o600);
    const env = { LEXGOLD_BACKUP_DIR: s.backups };
    const r = lexgold(s, ["doctor", "--db", drill], { env });
    expect(r.stdout).toContain(`--    backups      backups not checked: --db names ${drill}, not the configured database (--backups DIR checks its backups)`);
    expect(r.stdout).not.toMatch(/no backups of drill\.db/);
    expect(r.status, r.stdout).toBe(0);
    // The configured database is still checked against LEXGOLD_BACKUP_DIR, named with --db or not.
    expect(lexgold(s, ["doctor", "--db", s.db], { env }).stdout).toMatch(/^ok {4}backups {6}1 backup in /m);
    // Named explicitly, the drill's backups are checked (it has none there).
    const named = lexgold(s, ["doctor", "--db", drill, "--backups", s.backups], { env });
    expect(named.status).toBe(2);
    expect(named.stdout).toContain(`WARN  backups      no backups of drill.db in ${s.backups}`);
    // A copy named by hand, as the README's first example makes one, is named as not counted, and why.
    expect(lexgold(s, ["backup", path.join(s.backups, "before-upgrade.db")]).status).toBe(0);
    const byHand = lexgold(s, ["doctor", "--db", drill, "--backups", s.backups], { env });
    expect(byHand.stdout).toMatch(/no backups of drill\.db in \S+ \(2 other files there, e\.g\. before-upgrade\.db, are not counted: only the copies `backup --dir` names drill-<time>\.db count\)/);
    const skipped = lexgold(s, ["doctor", "--no-backups"], { env });
    expect(skipped.stdout).toContain("--    backups      backups not checked (--no-backups)");
    expect(skipped.status, skipped.stdout).toBe(0);
  });

  it("fails when there is nothing to check", () => {
    const s = site();
    const r = lexgold(s, ["doctor"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`FAIL  database     no database at ${s.db}`);
    expect(r.stdout).toContain(`FAIL  secret       no session secret at ${s.secret}`);
  });
});

describe("lexgold backup --dir --keep", SLOW, () => {
  it("run five times with --keep 3 leaves the three newest, each checked; other files stay", () => {
    const s = initialised();
    // Something to back up, and files in the directory that are not lexgold's timestamped backups.
    expect(lexgold(s, ["project", "create", "kept"]).status).toBe(0);
    const strangers = ["notes.txt", "study-by-hand.db", "other-2026-01-01T00-00-00-000Z.db", "study-2026-01-01.db"];
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      if (i === 1) for (const f of strangers) fs.writeFileSync(path.join(s.backups, f), "not mine");
      const r = lexgold(s, ["backup", "--dir", s.backups, "--keep", "3", "-q"]);
      expect(r.status, r.stderr).toBe(0);
      made.push(r.stdout.match(/ to (\S+): /)![1]);
      expect(r.stdout).toContain(`${Math.min(i + 1, 3)} backup${i === 0 ? "" : "s"} of this database in ${s.backups}`);
      if (i >= 3) expect(r.stdout).toContain(`; removed ${path.basename(made[i - 3])}.`);
    }
    const left = fs.readdirSync(s.backups).sort();
    expect(left).toEqual([...strangers, ...made.slice(2).map((f) => path.basename(f))].sort());
    for (const f of made.slice(2)) {
      expect(path.basename(f)).toMatch(/^study-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.db$/);
      expect(mode(f)).toBe("600");
      expect(query<{ integrity_check: string }>(f, "pragma integrity_check")).toEqual([{ integrity_check: "ok" }]);
      expect(query<{ name: string }>(f, "select name from projects").map((p) => p.name)).toEqual(["kept"]);
      expect(query<{ name: string }>(f, "select name from users").map((u) => u.name)).toEqual(["boss"]);
    }
    expect(mode(s.backups)).toBe("700");
  });

  it.each([
    [["backup"], "lexgold: give the backup's FILE, or --dir DIR for a timestamped one"],
    [["backup", "x.db", "--dir", "d"], "lexgold: give either FILE or --dir DIR, not both"],
    [["backup", "x.db", "--keep", "3"], "lexgold: --keep works with --dir"],
    [["backup", "--dir", "d", "--keep", "0"], 'lexgold: --keep must be a whole number of at least 1, not "0"'],
  ])("refuses %j", (args, message) => {
    const s = site();
    const r = lexgold(s, args);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`${message}\n`);
  });

  it("a restored backup is private too", () => {
    const s = initialised();
    const bak = path.join(s.dir, "loose.db");
    expect(lexgold(s, ["backup", bak]).status).toBe(0);
    expect(mode(bak)).toBe("600");
    fs.chmodSync(bak, 0o644);
    const target = path.join(s.dir, "restored.db");
    expect(lexgold(s, ["restore", bak, "--db", target]).status).toBe(0);
    expect(mode(target)).toBe("600");
  });
});

/**
 * The systemd unit of docs/operating.md, emulated (#28 "Done when"): the checkout is
 * read-only (ProtectSystem=strict) except the build directory (ReadWritePaths
 * …/.next; here NEXT_DIST_DIR, .next-e2e), the data lives elsewhere. Every
 * command runs in a private mount namespace (`unshare -m`) in which the
 * checkout is bound read-only onto itself and the build directory is a
 * writable mount inside it. `lexgold init`, a project, its accounts and
 * responses from the CLI, then `lexgold start`; over HTTP a lexelt XML upload
 * (the jobs worker), and the Gold, Agreement, Progress and Scoring pages and
 * the gold download (the derivation process), with a password sign-in (the
 * bcrypt workers). None of it may write into the checkout: the workers are
 * the bundles the build made (dist-workers/).
 *
 * A Playwright spec rather than a Vitest test because it needs the production
 * build, which `npm test` makes after the unit tests (scripts/test-all.sh); it
 * reuses that build. It needs root (mount namespaces): as another user it is
 * skipped, saying so.
 */
import { type ChildProcess, spawnSync, type SpawnSyncReturns } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signIn } from "../bench/lib/auth";
import { spareLoopbackPort, startServer, stopServer } from "./server-process";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin", "lexgold");
const distDir = path.resolve(root, process.env.NEXT_DIST_DIR || ".next-e2e");
const PASSWORD = "Read-only-checkout-2026";

/** Why this machine cannot run the emulation, or null when it can. */
function cannotRun(): string | null {
  if (process.getuid?.() !== 0) return "needs root: a read-only bind mount in a private mount namespace (unshare -m)";
  const probe = spawnSync("unshare", ["-m", "true"], { encoding: "utf8" });
  if (probe.status !== 0) return `unshare -m is not available here (${(probe.stderr || String(probe.error)).trim()})`;
  if (!fs.existsSync(path.join(distDir, "BUILD_ID"))) return `no production build in ${distDir} (npm test builds it before the browser tests)`;
  return null;
}

/** The shell that makes the checkout read-only (its build directory writable) in a new mount namespace, then runs "$@". */
const READ_ONLY = [
  "set -e",
  "mount --make-rprivate /",
  'mount --bind "$LEXGOLD_RO_ROOT" "$LEXGOLD_RO_ROOT"',
  'mount --bind "$LEXGOLD_RO_WRITABLE" "$LEXGOLD_RO_WRITABLE"',
  'mount -o remount,bind,ro "$LEXGOLD_RO_ROOT"',
  'exec "$@"',
].join("\n");

function readOnlyArgs(cmd: string, args: string[]): string[] {
  return ["-m", "sh", "-c", READ_ONLY, "sh", cmd, ...args];
}

function siteEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_DIST_DIR: path.relative(root, distDir),
    LEXGOLD_DB: path.join(dir, "study.db"),
    LEXGOLD_SECRET_FILE: path.join(dir, "secret"),
    LEXGOLD_BCRYPT_COST: "4",
    LEXGOLD_RO_ROOT: root,
    LEXGOLD_RO_WRITABLE: distDir,
    // PrivateTmp=true gives the service a temp dir of its own.
    TMPDIR: path.join(dir, "tmp"),
  };
  for (const k of ["NEXTAUTH_URL", "LEXGOLD_PUBLIC_URL", "NEXTAUTH_SECRET", "LEXGOLD_HOST", "PORT", "LEXGOLD_CACHE_DIR"]) delete env[k];
  return env;
}

function lexgold(env: NodeJS.ProcessEnv, args: string[], input = ""): SpawnSyncReturns<string> {
  return spawnSync("unshare", readOnlyArgs(bin, args), { env, input, encoding: "utf8", timeout: 120_000, cwd: root });
}

let server: ChildProcess | null = null;
let dir = "";

test.afterAll(async () => {
  await stopServer(server);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("with the checkout read-only and the build writable, init, an import and the start serve Gold, Agreement, Progress and Scoring", async () => {
  const reason = cannotRun();
  test.skip(reason !== null, reason ?? "");
  test.setTimeout(300_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-ro-"));
  fs.mkdirSync(path.join(dir, "tmp"), { mode: 0o700 });
  const env = siteEnv(dir);

  // The namespace really is read-only where the unit makes it so, and writable where it does not.
  const probe = spawnSync("unshare", readOnlyArgs("sh", ["-c", `touch "${root}/.ro-probe" 2>&1; touch "${distDir}/.rw-probe" && rm "${distDir}/.rw-probe" && echo writable`]), {
    env,
    encoding: "utf8",
  });
  expect(probe.stdout).toMatch(/Read-only file system/);
  expect(probe.stdout).toMatch(/writable/);
  expect(fs.existsSync(path.join(root, ".ro-probe"))).toBe(false);

  const step = (args: string[], input = "") => {
    const r = lexgold(env, args, input);
    expect(r.status, `lexgold ${args.join(" ")}:\n${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stderr).not.toMatch(/EROFS|read-only file system|running bin\/cli\.ts through tsx/i);
    return r;
  };
  step(["init", "study-lead"], `${PASSWORD}\n`);
  step(["project", "create", "study"]);
  step(["member", "add", "study-lead", "--project", "study"]);
  for (const a of ["annotator2", "annotator3", "annotator4", "annotator5"]) step(["user", "add", a, "--role", "annotator", "--project", "study"], `${PASSWORD}\n`);

  const port = await spareLoopbackPort();
  const base = `http://127.0.0.1:${port}`;
  const started = await startServer("unshare", readOnlyArgs(bin, ["start", "--port", String(port)]), base, { env, cwd: root });
  server = started.child;

  const cookie = await signIn(base, "study-lead", PASSWORD);
  const projects = await (await fetch(`${base}/projects`, { headers: { Cookie: cookie } })).text();
  const id = /href="\/projects\/(\d+)"/.exec(projects)?.[1];
  expect(id, projects.slice(0, 500)).toBeTruthy();

  // The import: a lexelt XML upload runs in the jobs worker.
  const xml = fs.readFileSync(path.join(root, "samples", "demo.xml"));
  const imported = await fetch(`${base}/api/projects/${id}/import?wait=1`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: base, "Content-Type": "application/xml", "X-File-Name": "demo.xml" },
    body: xml,
  });
  expect(imported.status, await imported.clone().text()).toBe(200);
  expect(((await imported.json()) as { report: { message: string } }).report.message).toMatch(/added 40 instances/);
  // Their answers, from the CLI (beside the running server, as a coordinator would).
  step(["responses", "import", path.join(root, "samples", "demo-responses.tsv"), "--project", "study"]);

  // The pages that derive in the derivation process.
  for (const [page, heading] of [
    ["gold", "Gold review"],
    ["agreement", "The figures"],
    ["progress", "<h1>Progress</h1>"],
    ["scoring", "<h1>Scoring</h1>"],
  ]) {
    const res = await fetch(`${base}/projects/${id}/${page}`, { headers: { Cookie: cookie } });
    const html = await res.text();
    expect(res.status, `${page}: ${html.slice(0, 300)}`).toBe(200);
    expect(html, page).toContain(heading);
  }
  const gold = await fetch(`${base}/api/projects/${id}/gold?file=gold`, { headers: { Cookie: cookie } });
  expect(gold.status).toBe(200);
  expect(await gold.text()).toMatch(/^quiet\.a d1 :: /m);

  expect(started.output()).not.toMatch(/EROFS|read-only file system|worker bundle .* is missing/i);
  server.kill("SIGTERM");
  await new Promise((r) => server!.once("exit", r));
});

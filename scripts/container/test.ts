/**
 * `npm run test:container`: the container image, built and run for real with buildah (Debian's
 * package; `podman run` cannot start containers where setrlimit is not permitted, but
 * `buildah run --isolation chroot` runs commands in an image, on the host's network).
 *
 * 1. A base: LEXGOLD_CONTAINER_BASE if set (e.g. node:20-bookworm-slim where a registry of images
 *    is reachable), else the local stand-in scripts/container/base.sh builds from Debian's packages
 *    and the npm registry; the image is built from the Containerfile with it as BASE.
 * 2. Refusals, each with its message: a /data this user cannot write; an empty /data without
 *    LEXGOLD_INIT_USER; LEXGOLD_INIT_USER without a password.
 * 3. The server started as the image says (its CMD, USER, WORKDIR and environment) on a spare
 *    port with a temporary /data and the first coordinator from a mounted password file; the
 *    image's HEALTHCHECK command run until it passes (start-to-healthy seconds).
 * 4. A project, an annotator and a membership made with the image's `lexgold`; the annotator signs
 *    in over HTTP (next-auth's credentials flow) and saves an answer; the server is stopped and
 *    started again, and the coordinator finds the answer in the responses download.
 * 5. The server's processes run as the image's user, not root; nothing in the container was
 *    written outside /data (every file of its root compared before and after); the files in /data
 *    belong to that user.
 *
 * Prints the image's size and the start-to-healthy seconds. Needs root (buildah), and
 * buildah/debootstrap (installed from Debian's packages when missing). LEXGOLD_CONTAINER_KEEP=1
 * keeps the image and the temporary folders.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

const ROOT = path.resolve(import.meta.dirname, "../..");
const IMAGE = process.env.LEXGOLD_CONTAINER_IMAGE ?? "localhost/lexgold:test";
const KEEP = process.env.LEXGOLD_CONTAINER_KEEP === "1";
const COORDINATOR = "coordinator";
const ANNOTATOR = "ann";
/** Passwords for this throw-away run only: random, so no published password is ever served. */
const COORD_PASSWORD = `coord-${crypto.randomBytes(9).toString("base64url")}`;
const ANN_PASSWORD = `annot-${crypto.randomBytes(9).toString("base64url")}`;

const failures: string[] = [];
let passed = 0;
function check(ok: boolean, what: string, detail = ""): void {
  if (ok) {
    passed++;
    console.log(`  ok    ${what}`);
  } else {
    failures.push(what);
    console.log(`  FAIL  ${what}${detail ? `\n        ${detail.replace(/\n/g, "\n        ")}` : ""}`);
  }
}
const log = (s: string) => console.log(`test:container: ${s}`);

function sh(cmd: string, args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return execFileSync(cmd, args, { encoding: "utf8", input: opts.input, env: opts.env ?? process.env, maxBuffer: 64 << 20, stdio: ["pipe", "pipe", "inherit"] });
}

interface ImageConfig {
  Cmd: string[];
  User: string;
  WorkingDir: string;
  Env: string[];
  Healthcheck?: { Test: string[] };
}

async function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A working container of the image: `buildah run` with its mounts and variables. */
class Container {
  readonly id: string;
  constructor(readonly image: string) {
    this.id = sh("buildah", ["from", "--quiet", image]).trim();
    // `buildah run` would put an anonymous volume of its own on the image's VOLUME /data, over the
    // folder each run mounts there (and not always in the same order): this working container drops
    // the declaration, so /data is the test's folder, as `docker run -v` makes it.
    sh("buildah", ["config", "--volume", "/data-", this.id]);
  }
  args(opts: { data: string; env?: Record<string, string>; mounts?: string[] }, command: string[]): string[] {
    const a = ["run", "--isolation", "chroot", "-v", `${opts.data}:/data`];
    for (const m of opts.mounts ?? []) a.push("-v", m);
    for (const [k, v] of Object.entries(opts.env ?? {})) a.push("--env", `${k}=${v}`);
    return [...a, this.id, "--", ...command];
  }
  run(opts: { data: string; env?: Record<string, string>; mounts?: string[]; input?: string }, command: string[]): { status: number; out: string } {
    const r = spawnSync("buildah", this.args(opts, command), { encoding: "utf8", input: opts.input, maxBuffer: 64 << 20 });
    return { status: r.status ?? 1, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
  }
  start(opts: { data: string; env?: Record<string, string>; mounts?: string[] }, command: string[]): ChildProcess {
    const child = spawn("buildah", this.args(opts, command), { stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    (child as ChildProcess & { output: () => string }).output = () => out;
    return child;
  }
  mount(): string {
    return sh("buildah", ["mount", this.id]).trim();
  }
  remove(): void {
    spawnSync("buildah", ["umount", this.id]);
    spawnSync("buildah", ["rm", this.id]);
  }
}

const output = (c: ChildProcess) => (c as ChildProcess & { output: () => string }).output();

/** Every file, link and folder under `root` but the skipped top-level folders: path → size, mode, mtime, owner. */
function snapshot(root: string, skip: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const r = `${rel}/${e.name}`;
      if (rel === "" && skip.has(e.name)) continue;
      const full = path.join(dir, e.name);
      const st = fs.lstatSync(full);
      out.set(r, `${st.size} ${st.mode.toString(8)} ${st.mtimeMs} ${st.uid}:${st.gid}`);
      if (e.isDirectory()) walk(full, r);
    }
  };
  walk(root, "");
  return out;
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [p, v] of after) if (before.get(p) !== v) out.push(`${before.has(p) ? "changed" : "added"} ${p}`);
  for (const p of before.keys()) if (!after.has(p)) out.push(`removed ${p}`);
  return out;
}

async function waitHealthy(c: Container, cfg: ImageConfig, data: string, env: Record<string, string>, server: ChildProcess, port: number, timeoutS: number): Promise<number | null> {
  const t0 = performance.now();
  const test = cfg.Healthcheck?.Test ?? [];
  const command = test[0] === "CMD" ? test.slice(1) : test[0] === "CMD-SHELL" ? ["sh", "-c", test[1]] : [];
  while ((performance.now() - t0) / 1000 < timeoutS) {
    if (server.exitCode !== null) return null;
    // Cheap from outside first; then the image's own health check, as the engine would run it.
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up && c.run({ data, env }, command).status === 0) return (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 250));
  }
  return null;
}

/** name=value pairs from Set-Cookie headers. */
function keepCookies(jar: Map<string, string>, res: Response): void {
  for (const c of res.headers.getSetCookie()) {
    const pair = c.split(";")[0];
    const eq = pair.indexOf("=");
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
  }
}
const cookies = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

/** next-auth's credentials flow as the sign-in page makes it; the Cookie header afterwards. */
async function signIn(base: string, name: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const csrf = await fetch(`${base}/api/auth/csrf`);
  keepCookies(jar, csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookies(jar), Origin: base },
    body: new URLSearchParams({ username: name, password, csrfToken, callbackUrl: `${base}/`, json: "true" }),
  });
  keepCookies(jar, res);
  await res.body?.cancel();
  const session = (await (await fetch(`${base}/api/auth/session`, { headers: { Cookie: cookies(jar) } })).json()) as { user?: { name?: string } };
  if (session.user?.name !== name) throw new Error(`sign-in as ${name} failed (status ${res.status}: ${res.headers.get("location") ?? ""})`);
  return cookies(jar);
}

/**
 * Stop the server as an engine stops a container: SIGTERM to its first process (`lexgold start`,
 * found by its PORT), which passes it on to the server; `buildah run` itself would only SIGKILL its
 * child and leave the server's processes behind. Whatever is still running after 20 s is killed.
 */
async function stop(server: ChildProcess, port: number): Promise<{ code: number | null; left: number }> {
  const done = server.exitCode !== null ? Promise.resolve(server.exitCode) : new Promise<number | null>((r) => server.once("exit", (code) => r(code)));
  const first = serverProcesses(port).filter((p) => /bin\/lexgold start/.test(p.cmd));
  for (const p of first) process.kill(p.pid, "SIGTERM");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && serverProcesses(port).length > 0) await new Promise((r) => setTimeout(r, 200));
  const left = serverProcesses(port);
  for (const p of left) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
  const code = await Promise.race([done, new Promise<number | null>((r) => setTimeout(() => r(server.exitCode), 5000))]);
  return { code, left: left.length };
}

/** The pids of processes whose command line runs this data folder's server, with their real uid. */
function serverProcesses(port: number): Array<{ pid: number; uid: number; cmd: string }> {
  const out: Array<{ pid: number; uid: number; cmd: string }> = [];
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
      const env = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      if (!cmd.includes("node") || !env.includes(`PORT=${port}`)) continue;
      const uid = Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]);
      out.push({ pid: Number(pid), uid, cmd });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** The base (LEXGOLD_CONTAINER_BASE, else the local stand-in), then the image from the Containerfile on it. */
function buildImage(): void {
  const base = process.env.LEXGOLD_CONTAINER_BASE ?? sh("bash", [path.join(ROOT, "scripts/container/base.sh")]).trim().split("\n").pop()!;
  log(`building ${IMAGE} from the Containerfile on ${base}`);
  // npm in the build trusts what this machine trusts (a TLS-intercepting proxy's authority included).
  const ca = process.env.LEXGOLD_CONTAINER_CA ?? "/etc/ssl/certs/ca-certificates.crt";
  const caArgs = fs.existsSync(ca) ? ["--volume", `${path.dirname(ca)}:/etc/ssl/host-certs:ro`, "--build-arg", `NODE_EXTRA_CA_CERTS=/etc/ssl/host-certs/${path.basename(ca)}`] : [];
  const build = spawnSync(
    "buildah",
    ["bud", "--isolation", "chroot", "--format", "docker", "--layers", "--build-arg", `BASE=${base}`, ...caArgs, "-f", "Containerfile", "-t", IMAGE, "."],
    { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (build.status !== 0) throw new Error(`buildah bud failed (exit ${build.status})`);
}

async function main(): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error("buildah needs root here: run as root");
  const t0 = performance.now();
  const tb = performance.now();
  if (process.env.LEXGOLD_CONTAINER_BUILT === "1") log(`testing ${IMAGE} as built before (LEXGOLD_CONTAINER_BUILT=1)`);
  else buildImage();
  const buildS = (performance.now() - tb) / 1000;
  const cfg = (JSON.parse(sh("buildah", ["inspect", "--type", "image", IMAGE])) as { Docker: { config: ImageConfig } }).Docker.config;
  const sizeBytes = imageBytes(IMAGE);
  log(`image ${IMAGE}: ${(sizeBytes / 1e6).toFixed(0)} MB (built in ${buildS.toFixed(0)} s); CMD ${JSON.stringify(cfg.Cmd)}, USER ${cfg.User}`);

  check(cfg.User !== "" && cfg.User !== "root" && cfg.User !== "0", "the image runs as a user of its own, not root", `USER is "${cfg.User}"`);
  check(!!cfg.Healthcheck?.Test?.length, "the image has a health check", JSON.stringify(cfg.Healthcheck));
  check(cfg.Env.includes("LEXGOLD_DB=/data/lexgold.db"), "the database is under /data");
  check(Object.keys((cfg as ImageConfig & { Volumes?: Record<string, unknown> }).Volumes ?? {}).includes("/data"), "the image declares the volume /data");

  const c = new Container(IMAGE);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-container-"));
  const uid = Number(c.run({ data: tmp }, ["id", "-u"]).out.trim());
  const gid = Number(c.run({ data: tmp }, ["id", "-g"]).out.trim());
  check(Number.isInteger(uid) && uid > 0, "commands in the image run as a non-root uid", `id -u: ${uid}`);
  const data = path.join(tmp, "data");
  fs.mkdirSync(data, { mode: 0o700 });
  fs.chownSync(data, uid, gid);
  const secrets = path.join(tmp, "secrets");
  fs.mkdirSync(secrets);
  fs.writeFileSync(path.join(secrets, "password"), `${COORD_PASSWORD}\n`, { mode: 0o600 });
  fs.chownSync(path.join(secrets, "password"), uid, gid);
  const port = await sparePort();
  const base_ = `http://127.0.0.1:${port}`;
  const env = { PORT: String(port), NEXTAUTH_URL: base_, LEXGOLD_INIT_USER: COORDINATOR, LEXGOLD_INIT_PASSWORD_FILE: "/run/secrets/lexgold-password" };
  const mounts = [`${secrets}/password:/run/secrets/lexgold-password:ro`];

  let server: ChildProcess | null = null;
  try {
    // Refusals first.
    const rootOwned = path.join(tmp, "root-owned");
    fs.mkdirSync(rootOwned, { mode: 0o755 });
    let r = c.run({ data: rootOwned, env, mounts }, cfg.Cmd);
    check(r.status !== 0 && /cannot write in \/data/.test(r.out) && /chown/.test(r.out), "a /data it cannot write is refused, saying so", r.out.trim());
    check(fs.readdirSync(rootOwned).length === 0, "… and nothing is written there");
    const empty = path.join(tmp, "empty");
    fs.mkdirSync(empty, { mode: 0o700 });
    fs.chownSync(empty, uid, gid);
    r = c.run({ data: empty, env: { PORT: String(port), NEXTAUTH_URL: base_ } }, cfg.Cmd);
    check(r.status !== 0 && /LEXGOLD_INIT_USER/.test(r.out) && !/listening/.test(r.out), "an empty /data without LEXGOLD_INIT_USER is refused, naming it", r.out.trim());
    r = c.run({ data: empty, env: { PORT: String(port), NEXTAUTH_URL: base_, LEXGOLD_INIT_USER: COORDINATOR } }, cfg.Cmd);
    check(r.status !== 0 && /no default password/.test(r.out), "LEXGOLD_INIT_USER without a password is refused (no default password)", r.out.trim());
    check(!fs.existsSync(path.join(empty, "lexgold.db")), "… and no database is made");

    // A warm-up run, so that what `buildah run` itself sets up is in the picture before it is taken.
    c.run({ data, env, mounts }, ["true"]);
    const rootfs = c.mount();
    const before = snapshot(rootfs, new Set(["data", "proc", "sys", "dev", "run"]));

    // First start: the first coordinator from the mounted file.
    server = c.start({ data, env, mounts }, cfg.Cmd);
    const healthyS = await waitHealthy(c, cfg, data, env, server, port, 300);
    check(healthyS !== null, "the server starts and its health check passes", output(server).slice(-3000));
    if (healthyS === null) throw new Error("the server did not become healthy");
    log(`start to healthy: ${healthyS.toFixed(1)} s`);
    const procs = serverProcesses(port);
    check(procs.length > 0 && procs.every((p) => p.uid === uid), `the server's processes run as uid ${uid}, not root`, JSON.stringify(procs));

    // A project, an annotator, a save.
    // The image's own lexgold, beside the running server; a password goes in on stdin, as `user add` reads it.
    const cli = (args: string[]) => c.run({ data, env: { PORT: String(port), PW: ANN_PASSWORD } }, ["sh", "-c", `printf '%s\\n' "$PW" | bin/lexgold "$@"`, "lexgold", ...args]);
    for (const args of [
      ["project", "create", "study"],
      ["import", "samples/demo.xml", "--project", "study"],
      ["user", "add", ANNOTATOR, "--role", "annotator", "--project", "study"],
      ["member", "add", ANNOTATOR, "--project", "study"],
      ["member", "add", COORDINATOR, "--project", "study", "--role", "coordinator"],
    ]) {
      const out = cli(args);
      check(out.status === 0, `lexgold ${args.join(" ")}`, out.out.trim());
    }
    const annCookie = await signIn(base_, ANNOTATOR, ANN_PASSWORD);
    const work = await fetch(`${base_}/annotate`, { headers: { Cookie: annCookie } });
    check(work.status === 200, "the annotator's Annotate page opens", String(work.status));
    const ids = projectAndInstance(path.join(data, "lexgold.db"));
    const save = await fetch(`${base_}/api/projects/${ids.projectId}/responses/${ids.instanceRef}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: annCookie, Origin: base_ },
      body: JSON.stringify({ response: { kind: "substitutes", substitutes: ["silent", "hushed"], multiword: false }, expectedRevision: 0 }),
    });
    const saved = (await save.json()) as { ok?: boolean };
    check(save.status === 200 && saved.ok === true, "the annotator's answer is saved", JSON.stringify(saved).slice(0, 300));

    // Restart: the answer is still there.
    const stopped = await stop(server, port);
    check(stopped.left === 0 && stopped.code === 0, "the server stops on SIGTERM, every process of it", `exit ${stopped.code}, ${stopped.left} processes left\n${output(server).slice(-1500)}`);
    server = c.start({ data, env, mounts }, cfg.Cmd);
    const againS = await waitHealthy(c, cfg, data, env, server, port, 300);
    check(againS !== null, "it starts again on the same /data", output(server).slice(-3000));
    if (againS !== null) {
      check(!/created .* with the coordinator/.test(output(server)), "… keeping the accounts it has (no second first account)");
      const coordCookie = await signIn(base_, COORDINATOR, COORD_PASSWORD);
      const tsv = await (await fetch(`${base_}/api/projects/${ids.projectId}/responses`, { headers: { Cookie: coordCookie } })).text();
      check(new RegExp(`^${ANNOTATOR}\\t[^\\t]+\\t${ids.instanceId}\\tsilent;hushed\\t`, "m").test(tsv), "after the restart the coordinator finds the answer", tsv.slice(0, 400));
    }
    const again = await stop(server, port);
    server = null;
    check(again.left === 0, "… and stops again");

    // Nothing written outside /data; what is in /data belongs to the image's user.
    const after = snapshot(rootfs, new Set(["data", "proc", "sys", "dev", "run"]));
    const changed = differences(before, after);
    check(changed.length === 0, "nothing was written in the container outside /data", changed.slice(0, 30).join("\n"));
    const foreign = [...snapshot(data, new Set()).entries()].filter(([, v]) => !v.endsWith(` ${uid}:${gid}`)).map(([p]) => p);
    check(foreign.length === 0, `every file in /data belongs to uid ${uid}`, foreign.join("\n"));
    check(fs.existsSync(path.join(data, "secret")) && (fs.statSync(path.join(data, "secret")).mode & 0o077) === 0, "the session secret is in /data, private");

    const total = (performance.now() - t0) / 1000;
    console.log(`\nimage size: ${(sizeBytes / 1e6).toFixed(0)} MB; start to healthy: ${healthyS.toFixed(1)} s (again: ${againS?.toFixed(1) ?? "-"} s); build ${buildS.toFixed(0)} s; all ${total.toFixed(0)} s`);
  } finally {
    if (server) await stop(server, port);
    if (!KEEP) {
      c.remove();
      fs.rmSync(tmp, { recursive: true, force: true });
    } else log(`kept container ${c.id} and ${tmp}`);
  }
}

/** The image's size in bytes (buildah's own figure, e.g. "892 MB"). */
function imageBytes(image: string): number {
  const json = JSON.parse(sh("buildah", ["images", "--json", image])) as Array<{ size: string | number }>;
  const m = /^([\d.]+)\s*(B|kB|KB|MB|GB)$/.exec(String(json[0]?.size ?? "").trim());
  if (!m) return Number(json[0]?.size ?? 0);
  return Number(m[1]) * ({ B: 1, kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9 } as Record<string, number>)[m[2]];
}

/** The study's project id and the first instance of quiet.a, read from the database file on the host. */
function projectAndInstance(dbFile: string): { projectId: number; instanceRef: number; instanceId: string } {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        "select p.id as projectId, i.id as instanceRef, i.instance_id as instanceId from projects p join lexelts l on l.project_id = p.id " +
          "join instances i on i.lexelt_id = l.id where p.name = 'study' and l.item = 'quiet.a' order by i.position limit 1",
      )
      .get() as { projectId: number; instanceRef: number; instanceId: string };
  } finally {
    db.close();
  }
}

main().then(
  () => {
    console.log(`${passed} passed, ${failures.length} failed`);
    process.exit(failures.length === 0 ? 0 : 1);
  },
  (e) => {
    console.error(`test:container: ${(e as Error).message}`);
    console.log(`${passed} passed, ${failures.length + 1} failed`);
    process.exit(1);
  },
);

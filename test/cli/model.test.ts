/** `lexgold model add | list | remove` (issue #41), against a model server on loopback (test/support/model-server.ts). */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../support/model-server";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-model-"));
const db = path.join(dir, "cli.db");
const sample = path.resolve(__dirname, "../../samples/demo.xml");
const env = { ...process.env, LEXGOLD_DB: db, LEXGOLD_SECRET_FILE: path.join(dir, "secret"), TEST_MODEL_KEY: "sk-from-env-42" };

function lexgold(args: string[]) {
  const r = spawnSync(bin, args, { encoding: "utf8", env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same, without blocking the loopback server this process runs. */
function lexgoldAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const c = spawn(bin, args, { env });
    let stdout = "";
    let stderr = "";
    c.stdout.on("data", (d) => (stdout += d));
    c.stderr.on("data", (d) => (stderr += d));
    c.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const rows = (sql: string) => {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare(sql).all();
  } finally {
    d.close();
  }
};

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ answers: { bright: { answer: "substitutes", substitutes: ["shining", "vivid"], multiword: null } } });
  expect(lexgold(["project", "create", "demo"]).status).toBe(0);
  expect(lexgold(["import", sample, "--project", "demo"]).status).toBe(0);
});
afterAll(() => server.close());

describe("lexgold model", () => {
  it("adds a model with the name of the variable that holds its key, lists it, and stores no key", () => {
    const r = lexgold(["model", "add", "llama", "--project", "demo", "--kind", "ollama", "--base-url", server.url, "--model", "llama3.1:8b", "--api-key-env", "TEST_MODEL_KEY", "--max-concurrency", "3"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`registered model "llama" in "demo": ollama llama3.1:8b at ${server.url} (key from $TEST_MODEL_KEY), 3 at once, 60 s a call\n`);
    expect(JSON.stringify(rows("select * from models"))).not.toContain("sk-from-env");
    const list = lexgold(["model", "list", "--project", "demo"]);
    expect(list.stdout).toBe(`llama\tollama\tllama3.1:8b\t${server.url}\tkey $TEST_MODEL_KEY\t3 at once\t60 s\t0 samples\t0 answers\t0 calls\tnot counted\n`);
  });

  it("refuses a bad field by name, and one of lexgold's own settings as the key's variable; writes nothing", () => {
    const bad = lexgold(["model", "add", "x", "--project", "demo", "--kind", "anthropic", "--base-url", server.url, "--model", "m"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/Cannot register the model: The kind is openai/);
    const secret = lexgold(["model", "add", "x", "--project", "demo", "--kind", "openai", "--base-url", server.openaiBase, "--model", "m", "--api-key-env", "NEXTAUTH_SECRET"]);
    expect(secret.stderr).toMatch(/NEXTAUTH_SECRET is one of lexgold's own settings/);
    expect(rows("select name from models")).toEqual([{ name: "llama" }]);
  });

  it("removes a model", async () => {
    expect(lexgold(["model", "add", "gone", "--project", "demo", "--kind", "openai", "--base-url", server.openaiBase, "--model", "m"]).status).toBe(0);
    const r = await lexgoldAsync(["model", "remove", "gone", "--project", "demo"]);
    expect(r.stdout).toBe('removed model "gone" from "demo" with its 0 answers and 0 calls\n');
    expect(rows("select name from models")).toEqual([{ name: "llama" }]);
  });

  it("annotates a project, prints what failed and the agreement; Ctrl-C-free run again goes on; exports best and oot", async () => {
    server.next({ kind: "malformed" });
    const r = await lexgoldAsync(["model", "annotate", "--project", "demo", "--model", "llama", "--instances", "5"]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^quiet\.a d\d+: malformed: the reply is not JSON/m);
    expect(r.stdout).toMatch(/^llama: 4 answered \(0 from the cache\), 0 answered before, 1 failed, of 5; \d+ tokens in, \d+ out; template version 0$/m);
    expect(r.stdout).toMatch(/^agreement with the people: /m);
    // The key came from the variable named, in the process that called.
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer sk-from-env-42");
    const again = await lexgoldAsync(["model", "annotate", "--project", "demo", "--model", "llama", "--instances", "5"]);
    expect(again.stdout).toMatch(/^llama: 1 answered \(0 from the cache\), 4 answered before, 0 failed, of 5;/m);
    expect(rows("select count(*) as n from responses r join users u on u.id = r.user_id where u.role = 'model'")).toEqual([{ n: 5 }]);
    const best = await lexgoldAsync(["model", "export", "--project", "demo", "--model", "llama", "-t", "best"]);
    expect(best.stdout.split("\n").filter(Boolean)).toHaveLength(5);
    expect(best.stdout).toMatch(/^quiet\.a d1 :: alpha$/m);
    expect((await lexgoldAsync(["model", "annotate", "--project", "demo", "--model", "llama", "--instances", "2", "--candidates"])).status).toBe(0);
    const oot = await lexgoldAsync(["model", "export", "--project", "demo", "--model", "llama", "-t", "oot"]);
    expect(oot.stdout).toBe("quiet.a d1 ::: alpha;beta;gamma\nquiet.a d2 ::: alpha;beta;gamma\n");
  });

  it("counts a model as an annotator and back; discards its answers", async () => {
    expect((await lexgoldAsync(["model", "count", "llama", "--project", "demo", "--reason", "pilot"])).stdout).toBe('"llama" counts as an annotator now: its answers are in the gold\n');
    expect((await lexgoldAsync(["model", "discard", "llama", "--project", "demo"])).stderr).toMatch(/counted as an annotator/);
    expect((await lexgoldAsync(["model", "uncount", "llama", "--project", "demo"])).status).toBe(0);
    expect((await lexgoldAsync(["model", "discard", "llama", "--project", "demo"])).stdout).toBe('discarded the answers of "llama" (1 samples)\n');
    expect(rows("select count(*) as n from users where role = 'model'")).toEqual([{ n: 0 }]);
  });
});

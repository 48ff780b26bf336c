/**
 * Every command survives a closed pipe (`lexgold user list | head -1`): the
 * CLI stops quietly with exit 0, without a stack trace, whether the reader is
 * gone before the first write or leaves after the first chunk.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-epipe-"));
const env = { ...process.env, LEXGOLD_BCRYPT_COST: "4", LEXGOLD_DB: path.join(dir, "epipe.db") };

/** Run the CLI with its stdout a pipe we close: at once, or after the first chunk read. */
function closedPipe(args: string[], when: "at-once" | "after-first-chunk"): Promise<{ code: number | null; signal: string | null; stderr: string; read: number }> {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let read = 0;
    p.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    if (when === "at-once") p.stdout.destroy();
    else
      p.stdout.once("data", (d: Buffer) => {
        read = d.length;
        p.stdout.destroy();
      });
    p.on("error", reject);
    p.on("close", (code, signal) => resolve({ code, signal, stderr, read }));
  });
}

// Our own sample: 3,000 items of a made-up lexelt, so `score -v` writes far more than a pipe holds.
const items = Array.from({ length: 3000 }, (_, i) => i + 1);
const gold = path.join(dir, "gold");
const system = path.join(dir, "system.best");

beforeAll(() => {
  writeFileSync(gold, items.map((i) => `lamp.n ${i} :: light ${3 + (i % 3)};torch 2;lantern 1;`).join("\n") + "\n");
  writeFileSync(system, items.map((i) => `lamp.n ${i} :: ${i % 2 ? "torch" : "candle"}`).join("\n") + "\n");
  const demo = spawnSync(bin, ["demo"], { cwd: dir, env, encoding: "utf8" });
  expect(demo.status, demo.stderr).toBe(0);
});

describe("a closed stdout", () => {
  const commands: string[][] = [
    ["--help"],
    ["user", "list"],
    ["project", "list"],
    ["export", "gold", "--project", "demo"],
    ["responses", "export", "--project", "demo"],
    ["lemmas", "list", "--project", "demo"],
    ["score", "-v", system, gold],
    // The plain call, which bin/lexgold.cjs answers from its own file, without the ES module entry.
    ["score", system, gold],
  ];
  it.each(commands.map((c) => [c.join(" "), c] as const))("lexgold %s exits 0 without an error when the reader is gone", async (_name, args) => {
    const r = await closedPipe([...args], "at-once");
    // Only what the command says on stderr anyway (export gold lists the lemma proposals it applied).
    expect(r.stderr).not.toMatch(/EPIPE|Error|error:|\bat /);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
  });

  it("score -v stops quietly when the reader leaves after the first chunk (| head)", async () => {
    const r = await closedPipe(["score", "-v", system, gold], "after-first-chunk");
    expect(r.read).toBeGreaterThan(0);
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });

  it("the same command with the reader there prints everything (the handler changes nothing else)", () => {
    const r = spawnSync(bin, ["score", "-v", system, gold], { cwd: dir, env, encoding: "utf8" });
    expect(r.status).toBe(0);
    for (const i of [1, 1500, 3000]) expect(r.stdout).toContain(`lamp.n Item ${i} `);
    expect(r.stdout).toMatch(/precision = /);
  });
});

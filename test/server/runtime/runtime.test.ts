/**
 * The worker runtime (lib/server/runtime/, #28 item 1 and #27 finding 10): the
 * queue that takes turns between projects, and the pool's heap and time limits
 * on threads and on a child process. Everything waits for events (a task's
 * start, a promise settling), never for time to pass; the time limit is a few
 * milliseconds against a task that never ends.
 */
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FairQueue } from "../../../lib/server/runtime/fair-queue";
import { LimitError, type PoolSpec, WorkerPool } from "../../../lib/server/runtime/pool";
import { until } from "../../support/wait";

const fixture = path.resolve(import.meta.dirname, "../../fixtures/runtime/worker.mjs");

/** A task the test ends when it likes. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, task: () => opened };
}

describe("the fair queue", () => {
  it("gives the next lane to the project served longest ago, not to the one that queued most", async () => {
    const q = new FairQueue(() => 1);
    const started: string[] = [];
    q.onStart((s) => started.push(s.label));
    const gates = new Map<string, ReturnType<typeof gate>>();
    const push = (key: string, label: string) => {
      const g = gate();
      gates.set(label, g);
      q.push(key, label, g.task);
    };
    // Project A queues nine uploads, then B asks for its gold, then C.
    for (let i = 1; i <= 9; i++) push("A", `A${i}`);
    push("B", "B1");
    push("C", "C1");
    expect(started).toEqual(["A1"]);
    const next = (label: string) =>
      new Promise<string>((resolve) => {
        const off = q.onStart((s) => {
          off();
          resolve(s.label);
        });
        gates.get(label)!.open();
      });
    expect(await next("A1")).toBe("B1");
    expect(await next("B1")).toBe("C1");
    expect(await next("C1")).toBe("A2");
    expect(q.queued).toBe(7);
    for (let i = 2; i <= 8; i++) expect(await next(`A${i}`)).toBe(`A${i + 1}`);
    gates.get("A9")!.open();
    await q.whenIdle();
    expect(started).toEqual(["A1", "B1", "C1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9"]);
  });

  it("runs one task of a project at a time, and another project's at once on the second lane", async () => {
    const q = new FairQueue(() => 2, 1);
    const started: string[] = [];
    q.onStart((s) => started.push(s.label));
    const a1 = gate();
    const a2 = gate();
    const b1 = gate();
    q.push("A", "A1", a1.task);
    q.push("A", "A2", a2.task);
    expect(started).toEqual(["A1"]);
    expect(q.running).toBe(1);
    q.push("B", "B1", b1.task);
    expect(started).toEqual(["A1", "B1"]);
    const a2Started = new Promise<void>((resolve) => q.onStart((s) => s.label === "A2" && resolve()));
    a1.open();
    await a2Started;
    expect(started).toEqual(["A1", "B1", "A2"]);
    b1.open();
    a2.open();
    await q.whenIdle();
    expect(q.running).toBe(0);
  });

  it("drops a waiting task that is removed (a cancelled job), and hands back a task's result or error", async () => {
    const q = new FairQueue(() => 1);
    const g = gate();
    q.push("A", "1", g.task);
    q.push("A", "2", async () => {
      throw new Error("must not run");
    });
    const three = q.run("B", "3", async () => 3);
    const four = q.run("B", "4", async () => {
      throw new Error("four failed");
    });
    expect(q.remove((label) => label === "2")).toBe(1);
    g.open();
    expect(await three).toBe(3);
    await expect(four).rejects.toThrow("four failed");
    await q.whenIdle();
  });
});

describe("the pool's limits", () => {
  const pools: WorkerPool[] = [];
  afterEach(async () => {
    for (const p of pools.splice(0)) await p.destroy();
  });
  const pool = (given: Partial<PoolSpec> & Pick<PoolSpec, "runtime">) => {
    const spec: PoolSpec = { worker: { file: fixture }, what: "The task", threads: 1, heapMb: 2048, heapVar: "HEAP_VAR", timeMs: 0, timeVar: "TIME_VAR", ...given };
    const p = new WorkerPool(spec);
    pools.push(p);
    return { p, spec };
  };

  it.each(["worker_threads", "child_process"] as const)("says whether a worker is up (%s) and warm: none before the first task, one from it, warm once it answered, neither once the idle ones left", async (runtime) => {
    const { p } = pool({ runtime, idleMs: 20 });
    expect(p.hasWorker()).toBe(false);
    expect(p.isWarm()).toBe(false);
    const asked = p.run({ op: "echo", value: 1 });
    // Starting counts as up (a task asked for now goes to it), not as warm (that task would wait for the start).
    expect(p.hasWorker()).toBe(true);
    expect(p.isWarm()).toBe(false);
    expect(await asked).toBe(1);
    expect(p.isWarm()).toBe(true);
    await until(() => !p.hasWorker(), "the idle worker to leave");
    expect(p.isWarm()).toBe(false);
    // The next task starts a worker again: up, and not warm until it answered.
    const again = p.run({ op: "echo", value: 2 });
    await until(() => p.hasWorker(), "the next worker to start");
    expect(p.isWarm()).toBe(false);
    expect(await again).toBe(2);
    expect(p.hasWorker()).toBe(true);
    expect(p.isWarm()).toBe(true);
    await p.destroy();
    expect(p.hasWorker()).toBe(false);
    expect(p.isWarm()).toBe(false);
  });

  it.each(["worker_threads", "child_process"] as const)("a task over its heap (%s) fails with the limit named, and the next task gets a fresh worker", async (runtime) => {
    const { p } = pool({ runtime, heapMb: 32 });
    const before = await p.run<{ pid: number; threadId: number }>({ op: "who" });
    const err = await p.run({ op: "grow" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LimitError);
    expect((err as LimitError).limit).toBe("heap");
    expect((err as LimitError).message).toMatch(/32 MB.*HEAP_VAR.*nothing it would have written was kept/);
    const after = await p.run<{ pid: number; threadId: number }>({ op: "who" });
    expect(runtime === "child_process" ? after.pid : after.threadId).not.toBe(runtime === "child_process" ? before.pid : before.threadId);
    expect(await p.run({ op: "echo", value: 42 })).toBe(42);
  });

  it.each(["worker_threads", "child_process"] as const)("a task over its time (%s) is stopped and fails with the limit named; the pool goes on", async (runtime) => {
    const { p, spec } = pool({ runtime, timeMs: 20 });
    const err = await p.run({ op: "hang" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LimitError);
    expect((err as LimitError).limit).toBe("time");
    expect((err as LimitError).message).toMatch(/stopped after 0\.02 s, its time limit \(TIME_VAR\)/);
    // The limit counts from the task's start, a new worker's start included: lift it for the next task.
    spec.timeMs = 0;
    expect(await p.run({ op: "echo", value: "still here" })).toBe("still here");
  });

  // Linux keeps a nice value per thread, and /proc/self/task lists a process's threads.
  it.runIf(process.platform === "linux")("a child process started with `nice` runs at it from before its entry is read, every thread of it; without, at the server's", async () => {
    const ours = os.getPriority(0);
    const nice = Math.min(19, ours + 5);
    const lowered = await pool({ runtime: "child_process", nice }).p.run<{ atLoad: number; threads: number[] }>({ op: "nice" });
    expect(lowered.atLoad).toBe(nice);
    expect(lowered.threads.length).toBeGreaterThan(1);
    expect(lowered.threads.every((n) => n === nice)).toBe(true);
    const plain = await pool({ runtime: "child_process" }).p.run<{ atLoad: number }>({ op: "nice" });
    expect(plain.atLoad).toBe(ours);
  });
});

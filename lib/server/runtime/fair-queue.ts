/**
 * A queue that takes turns between keys (projects, #27 finding 10): up to
 * `lanes` tasks run at once, at most `perKey` of them for one key, and when a
 * lane frees the next task comes from the key served longest ago (a key never
 * served first) — one project's nine queued uploads do not make another
 * project's download wait behind all nine, only behind what is already running.
 *
 * A task is a function started when its turn comes; its promise settling frees
 * the lane. Listeners (`onStart`) hear each start, in order: tests wait for
 * these events rather than for time to pass.
 */
export interface QueueStart {
  key: string;
  label: string;
}

interface Waiting {
  label: string;
  start: () => Promise<unknown>;
}

export class FairQueue {
  /** Keys with waiting tasks (in the order they first queued: ties go to the earlier). */
  private waiting = new Map<string, Waiting[]>();
  /** When each key was last served (a running count); a key never served has had no turn (0). */
  private lastTurn = new Map<string, number>();
  private turns = 0;
  private runningByKey = new Map<string, number>();
  private runningCount = 0;
  private listeners = new Set<(s: QueueStart) => void>();
  private idle: Array<() => void> = [];

  constructor(
    private readonly lanes: () => number,
    private readonly perKey: number = Infinity,
  ) {}

  /** Queue `start` under `key`; it is called when its turn comes. */
  push(key: string, label: string, start: () => Promise<unknown>): void {
    const list = this.waiting.get(key);
    if (list) list.push({ label, start });
    else this.waiting.set(key, [{ label, start }]);
    this.pump();
  }

  /** Queue `fn` under `key`; its result once its turn has come and it has run. */
  run<T>(key: string, label: string, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.push(key, label, () => {
        let p: Promise<T>;
        try {
          p = fn();
        } catch (e) {
          p = Promise.reject(e);
        }
        p.then(resolve, reject);
        return p;
      });
    });
  }

  /** Drop waiting tasks for which `pred` holds (a cancelled job); the number dropped. */
  remove(pred: (label: string, key: string) => boolean): number {
    let n = 0;
    for (const [key, list] of this.waiting) {
      const keep = list.filter((w) => !pred(w.label, key));
      n += list.length - keep.length;
      if (keep.length === 0) this.waiting.delete(key);
      else this.waiting.set(key, keep);
    }
    this.settleIdle();
    return n;
  }

  get running(): number {
    return this.runningCount;
  }

  get queued(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  /** Hear every start; returns the function that stops listening. */
  onStart(f: (s: QueueStart) => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  /** Resolves when nothing runs or waits. */
  whenIdle(): Promise<void> {
    if (this.runningCount === 0 && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private settleIdle(): void {
    if (this.runningCount === 0 && this.waiting.size === 0) for (const f of this.idle.splice(0)) f();
  }

  private pump(): void {
    while (this.runningCount < this.lanes()) {
      // The key served longest ago (or never) among those with room: its turn.
      let picked: string | null = null;
      let pickedTurn = Infinity;
      for (const key of this.waiting.keys()) {
        if ((this.runningByKey.get(key) ?? 0) >= this.perKey) continue;
        const turn = this.lastTurn.get(key) ?? 0;
        if (turn < pickedTurn) {
          picked = key;
          pickedTurn = turn;
        }
      }
      if (picked === null) break;
      const key = picked;
      const list = this.waiting.get(key)!;
      const next = list.shift()!;
      if (list.length === 0) this.waiting.delete(key);
      this.lastTurn.set(key, ++this.turns);
      this.runningCount++;
      this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
      for (const f of this.listeners) f({ key, label: next.label });
      let run: Promise<unknown>;
      try {
        run = next.start();
      } catch (e) {
        run = Promise.reject(e);
      }
      void run
        .catch(() => undefined)
        .finally(() => {
          this.runningCount--;
          const left = (this.runningByKey.get(key) ?? 1) - 1;
          if (left === 0) this.runningByKey.delete(key);
          else this.runningByKey.set(key, left);
          // Forget the turns of keys with nothing waiting or running: the map stays as small as the work.
          if (left === 0 && !this.waiting.has(key)) this.lastTurn.delete(key);
          this.pump();
          this.settleIdle();
        });
    }
  }
}

/**
 * The resident memory of the server's process tree (Linux /proc; nothing elsewhere): every process
 * under the server's pid, sampled every few hundred milliseconds, named by part as bench/lib/cpu.ts
 * names them (the serving processes, the derivation child, the jobs worker and anything else).
 * `peak` is the largest sum over the tree seen in one sample, with what each part held then, and
 * the largest each part held at any sample.
 */
import fs from "node:fs";

type Part = "serving" | "derivation" | "jobs and other children";

function children(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[1]);
      const list = out.get(ppid) ?? [];
      list.push(Number(name));
      out.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function partOf(pid: number, root: number): Part {
  let cmd = "";
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    // gone
  }
  if (/derive-worker|tinypool\/dist\/entry\/process\.js/.test(cmd)) return "derivation";
  if (pid === root || /serve\.mjs/.test(cmd)) return "serving";
  return "jobs and other children";
}

/** One sample: bytes per part and in all, or null when the tree is gone (or there is no /proc). */
function treeRss(root: number | undefined): { total: number; parts: Record<Part, number>; processes: number; each: Record<Part, number[]> } | null {
  if (!root || !fs.existsSync(`/proc/${root}`)) return null;
  const kids = children();
  const parts: Record<Part, number> = { serving: 0, derivation: 0, "jobs and other children": 0 };
  const each: Record<Part, number[]> = { serving: [], derivation: [], "jobs and other children": [] };
  let processes = 0;
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    const part = partOf(pid, root);
    const bytes = rssBytes(pid);
    parts[part] += bytes;
    if (bytes > 0) each[part].push(bytes);
    processes++;
    todo.push(...(kids.get(pid) ?? []));
  }
  return { total: parts.serving + parts.derivation + parts["jobs and other children"], parts, processes, each };
}

export interface RssPeak {
  /** The largest tree total in one sample, and its parts then. */
  total: number;
  atPeak: Record<Part, number>;
  /** Each process's RSS at that sample, by part (largest first). */
  processesAtPeak: Record<Part, number[]>;
  /** The largest each part held at any sample. */
  partPeaks: Record<Part, number>;
  samples: number;
}

/** Samples the tree every `everyMs` until `stop()`, which gives the peaks. */
export function sampleRss(root: number | undefined, everyMs = 200): { stop: () => RssPeak } {
  const peak: RssPeak = {
    total: 0,
    atPeak: { serving: 0, derivation: 0, "jobs and other children": 0 },
    processesAtPeak: { serving: [], derivation: [], "jobs and other children": [] },
    partPeaks: { serving: 0, derivation: 0, "jobs and other children": 0 },
    samples: 0,
  };
  const take = () => {
    const s = treeRss(root);
    if (!s) return;
    peak.samples++;
    if (s.total > peak.total) {
      peak.total = s.total;
      peak.atPeak = { ...s.parts };
      peak.processesAtPeak = Object.fromEntries(Object.entries(s.each).map(([k, v]) => [k, [...v].sort((a, b) => b - a)])) as Record<Part, number[]>;
    }
    for (const k of Object.keys(s.parts) as Part[]) peak.partPeaks[k] = Math.max(peak.partPeaks[k], s.parts[k]);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}

export const mib = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;

/** "1,234 MiB (serving 800 = 40+380+380, derivation 300, jobs 134)": each part's processes beside it when it has more than one. */
export function formatPeak(p: RssPeak): string {
  const m = (b: number) => (b / 1048576).toFixed(0);
  const part = (k: Part) => {
    const each = p.processesAtPeak?.[k] ?? [];
    return `${m(p.atPeak[k])}${each.length > 1 ? ` = ${each.map(m).join("+")}` : ""}`;
  };
  return `${mib(p.total)} (serving ${part("serving")}, derivation ${part("derivation")}, jobs and others ${part("jobs and other children")} MiB at the peak)`;
}

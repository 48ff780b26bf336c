/**
 * Where the CPU goes during a load phase (Linux /proc; nothing elsewhere): user + system time of
 * each process of the server's tree, named by its part — the serving processes (scripts/serve.mjs:
 * a primary and its workers), the derivation child (lib/server/jobs/derive-worker.ts, at nice 10), anything
 * else the server started — the load generator (this process: autocannon runs in it), and the
 * whole machine (/proc/stat), so that what other programs took meanwhile shows too.
 *
 * Read a snapshot before and after; `cpuDelta` gives milliseconds per part. A process that started
 * during the phase counts from zero; one that ended during it is missing from the second snapshot
 * and its time is lost (none of the server's do in a load run).
 */
import fs from "node:fs";
import os from "node:os";

/** USER_HZ is 100 on Linux. */
const TICK_MS = 10;

type CpuPart = "server" | "derivation" | "server, other" | "load generator";

export interface CpuSnapshot {
  /** pid → part and CPU ms so far. */
  procs: Map<number, { part: CpuPart; cpuMs: number }>;
  /** Busy CPU ms of the whole machine (every core: user, nice, system, irq, softirq, steal). */
  machineBusyMs: number | null;
  /** Wall-clock ms (for the share of the machine's cores). */
  at: number;
}

function readStat(pid: number | "self"): { ppid: number; cpuMs: number } | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces and parentheses): state ppid … utime(14) stime(15).
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return null;
  }
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

function machineBusyMs(): number | null {
  try {
    const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0];
    // cpu user nice system idle iowait irq softirq steal …
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq + (steal || 0)) * TICK_MS;
  } catch {
    return null;
  }
}

/** The CPU of the server's process tree (rooted at serverPid), by part, and of this process. */
export function cpuSnapshot(serverPid: number | undefined): CpuSnapshot | null {
  if (!serverPid || !fs.existsSync("/proc/self/stat")) return null;
  const all = new Map<number, { ppid: number; cpuMs: number }>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(Number(name));
    if (st) all.set(Number(name), st);
  }
  if (!all.has(serverPid)) return null;
  const procs = new Map<number, { part: CpuPart; cpuMs: number }>();
  const todo = [serverPid];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    const cmd = cmdline(pid);
    const part: CpuPart = /derive-worker|tinypool\/dist\/entry\/process\.js/.test(cmd) ? "derivation" : pid === serverPid || /serve\.mjs/.test(cmd) ? "server" : "server, other";
    procs.set(pid, { part, cpuMs: all.get(pid)?.cpuMs ?? 0 });
    for (const [child, st] of all) if (st.ppid === pid) todo.push(child);
  }
  const self = readStat("self");
  if (self) procs.set(process.pid, { part: "load generator", cpuMs: self.cpuMs });
  return { procs, machineBusyMs: machineBusyMs(), at: Date.now() };
}

export interface CpuUse {
  /** CPU ms per part during the phase. */
  parts: Record<CpuPart, number>;
  /** Processes per part (at the end). */
  processes: Record<CpuPart, number>;
  /** Busy CPU ms of the whole machine, and what neither the server nor the load generator used. */
  machineMs: number | null;
  othersMs: number | null;
  wallMs: number;
  cores: number;
}

export function cpuDelta(before: CpuSnapshot | null, after: CpuSnapshot | null): CpuUse | null {
  if (!before || !after) return null;
  const parts: Record<CpuPart, number> = { server: 0, derivation: 0, "server, other": 0, "load generator": 0 };
  const processes: Record<CpuPart, number> = { server: 0, derivation: 0, "server, other": 0, "load generator": 0 };
  for (const [pid, p] of after.procs) {
    parts[p.part] += p.cpuMs - (before.procs.get(pid)?.cpuMs ?? 0);
    processes[p.part]++;
  }
  const machineMs = before.machineBusyMs === null || after.machineBusyMs === null ? null : after.machineBusyMs - before.machineBusyMs;
  const ours = Object.values(parts).reduce((a, b) => a + b, 0);
  return { parts, processes, machineMs, othersMs: machineMs === null ? null : Math.max(0, machineMs - ours), wallMs: after.at - before.at, cores: os.cpus().length };
}

/** One line per part: CPU seconds, share of the machine's cores over the phase, ms per unit of work. */
export function formatCpuUse(u: CpuUse, per: number, unit: string): string {
  const core = (ms: number) => `${((100 * ms) / Math.max(1, u.wallMs)).toFixed(0)} % of a core`;
  const line = (name: string, ms: number, n?: number) =>
    `  ${name.padEnd(34)} ${(ms / 1000).toFixed(1).padStart(6)} s  ${core(ms).padStart(15)}  ${(ms / Math.max(1, per)).toFixed(2).padStart(6)} ms per ${unit}${n === undefined ? "" : `  (${n} process${n === 1 ? "" : "es"})`}`;
  const serverAll = u.parts.server + u.parts.derivation + u.parts["server, other"];
  return [
    line("server: serving processes", u.parts.server, u.processes.server),
    line("server: derivation child", u.parts.derivation, u.processes.derivation),
    ...(u.processes["server, other"] > 0 ? [line("server: other children", u.parts["server, other"], u.processes["server, other"])] : []),
    line("server, all", serverAll),
    line("load generator (this process)", u.parts["load generator"]),
    ...(u.othersMs === null ? [] : [line("other programs on the machine", u.othersMs)]),
    ...(u.machineMs === null ? [] : [`  machine: ${(u.machineMs / 1000).toFixed(1)} s busy of ${((u.wallMs * u.cores) / 1000).toFixed(1)} s (${u.cores} cores × ${(u.wallMs / 1000).toFixed(1)} s wall)`]),
  ].join("\n");
}

/**
 * What a V8 CPU profile of the server spent its time on (`npm run load -- --cpu-prof DIR` writes
 * one per server process): self time grouped by where the code lives, then the functions with the
 * most self time, and the lexgold functions with the most inclusive time.
 *
 *   npm run bench:profile -- DIR|FILE... [--top N]
 */
import fs from "node:fs";
import path from "node:path";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const TOP = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const inputs = args.filter((a, i) => !a.startsWith("--") && (topAt < 0 || i !== topAt + 1));
const files = inputs.flatMap((p) => (fs.statSync(p).isDirectory() ? fs.readdirSync(p).filter((f) => f.endsWith(".cpuprofile")).map((f) => path.join(p, f)) : [p]));

function area(url: string, fn: string): string {
  if (fn === "(garbage collector)") return "garbage collection";
  if (fn === "(idle)") return "idle";
  if (fn === "(program)") return "V8 / native (program)";
  if (!url) return "native (no script)";
  if (url.startsWith("node:")) return /http|net|stream|_http/.test(url) ? "node: http, net, streams" : "node: other";
  if (/next\/dist\/compiled\/next-server|next\/dist\/server|next\/dist\/compiled/.test(url)) return "next (server, router)";
  if (/node_modules\/next\//.test(url)) return "next (other)";
  if (/\.next[^/]*\/server\/chunks|\.next[^/]*\/server\/app/.test(url)) return "app bundle (route code, lib, bundled deps)";
  if (/better-sqlite3|drizzle-orm/.test(url)) return "better-sqlite3 / drizzle";
  if (/jose/.test(url)) return "jose";
  if (/node_modules/.test(url)) return `node_modules: ${/node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1]}`;
  return "other script";
}

const byArea = new Map<string, number>();
const byFn = new Map<string, number>();
let total = 0;
let idle = 0;
for (const file of files) {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  p.samples.forEach((id, i) => {
    const n = nodes.get(id)!;
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    const a = area(n.callFrame.url, n.callFrame.functionName);
    if (a === "idle") {
      idle += dt;
      return;
    }
    total += dt;
    byArea.set(a, (byArea.get(a) ?? 0) + dt);
    const key = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*\/(node_modules|\.next[^/]*)\//, "$1/")}:${n.callFrame.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + dt);
  });
}
const pct = (v: number) => `${((100 * v) / Math.max(1, total)).toFixed(1).padStart(5)} %`;
process.stdout.write(`${files.length} profile(s): ${(total / 1000).toFixed(1)} s on the CPU, ${(idle / 1000).toFixed(1)} s idle\n\nself time by area:\n`);
for (const [a, v] of [...byArea].sort((x, y) => y[1] - x[1])) process.stdout.write(`  ${pct(v)}  ${(v / 1000).toFixed(2).padStart(7)} s  ${a}\n`);
process.stdout.write(`\nfunctions with the most self time:\n`);
for (const [f, v] of [...byFn].sort((x, y) => y[1] - x[1]).slice(0, TOP)) process.stdout.write(`  ${pct(v)}  ${f}\n`);

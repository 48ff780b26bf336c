/**
 * Benchmark for the lexsub scorer (issue #3): `npm run bench:score`.
 *
 * Generates a gold file and best and oot system files of 1,000,000 items
 * (bench/out/, gitignored; kept between runs, `--fresh` to regenerate), then
 * scores each type in a child process of its own — the gold streamed into the
 * scoring key, the system file streamed line by line — and reports items per
 * second and peak memory (VmHWM, the resident high-water mark; sampled RSS
 * where /proc is missing). Wall and CPU time are both reported: on a shared
 * machine the CPU time is the steadier figure. The official scorer needs
 * about 21 s and 1.1 GB for best on such files; the target is 20x faster
 * (< 1.05 s) and < 300 MB. With `--official score.pl` (your own copy of the
 * task's scorer) it is timed on the same files, for a same-machine baseline.
 *
 *   node --import tsx bench/score.ts [--items N] [--fresh] [--official path/to/score.pl]
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { loadScoringKey, scoreSubstitutionFile } from "../lib/scoring/files";

const OFFICIAL_SECONDS = 21;
const TARGET_SECONDS = OFFICIAL_SECONDS / 20;
const TARGET_MB = 300;

const here = path.dirname(new URL(import.meta.url).pathname);
const outDir = path.join(here, "out");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** A small deterministic PRNG (mulberry32), so every run scores the same files. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Write lines through a large buffer; resolves when the file is closed. */
async function writeLines(file: string, n: number, line: (i: number) => string): Promise<void> {
  const out = fs.createWriteStream(file);
  let buf = "";
  for (let i = 0; i < n; i++) {
    buf += line(i) + "\n";
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once("drain", () => r()));
      buf = "";
    }
  }
  out.write(buf);
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

interface Item {
  lexelt: string;
  subs: string[];
  counts: number[];
}

/** Generate gold, best and oot files of n items: 2,000 lexelts, 1–6 gold substitutes each, some multiword or hyphenated. */
async function generate(n: number): Promise<{ gold: string; best: string; oot: string }> {
  fs.mkdirSync(outDir, { recursive: true });
  const files = { gold: path.join(outDir, `gold.${n}`), best: path.join(outDir, `system.${n}.best`), oot: path.join(outDir, `system.${n}.oot`) };
  if (!process.argv.includes("--fresh") && Object.values(files).every((f) => fs.existsSync(f))) return files;
  const vocab = Array.from({ length: 5000 }, (_, k) => (k % 17 === 0 ? `word${k}-like` : k % 11 === 0 ? `word${k} up` : `word${k}`));
  const pos = ["n", "v", "a", "r"];
  const item = (i: number): Item => {
    const r = prng(i + 1);
    const types = 1 + Math.floor(r() * 6);
    const subs: string[] = [];
    while (subs.length < types) {
      const s = vocab[Math.floor(r() * vocab.length)];
      if (!subs.includes(s)) subs.push(s);
    }
    const counts = subs.map(() => 1 + Math.floor(r() * 4)).sort((a, b) => b - a);
    return { lexelt: `lemma${i % 2000}.${pos[i % 4]}`, subs, counts };
  };
  const t = Date.now();
  await writeLines(files.gold, n, (i) => {
    const it = item(i);
    return `${it.lexelt} ${i + 1} :: ${it.subs.map((s, k) => `${s} ${it.counts[k]};`).join("")}`;
  });
  // Answers: half the guesses from the gold, half not; hyphens typed as spaces at times.
  const guesses = (i: number, k: number) => {
    const it = item(i);
    const r = prng(7919 * (i + 1));
    return Array.from({ length: k }, () => (r() < 0.5 ? it.subs[Math.floor(r() * it.subs.length)].replace(/-/g, r() < 0.5 ? " " : "-") : `guess${Math.floor(r() * 9000)}`));
  };
  await writeLines(files.best, n, (i) => `${item(i).lexelt} ${i + 1} :: ${guesses(i, 1 + (i % 3)).join(";")}`);
  await writeLines(files.oot, n, (i) => `${item(i).lexelt} ${i + 1} ::: ${guesses(i, 10).join(";")}`);
  const mb = Object.values(files).reduce((s, f) => s + fs.statSync(f).size, 0) / 1e6;
  console.log(`generated ${n.toLocaleString("en")} items (${mb.toFixed(0)} MB in ${outDir}) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return files;
}

/** The peak resident set of this process in MB: VmHWM, else the sampled maximum. */
function peakMb(sampled: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // no /proc: use the samples
  }
  return sampled / (1024 * 1024);
}

/** Child: score one type and print one JSON line. */
async function runOne(type: "best" | "oot", gold: string, system: string): Promise<void> {
  let sampled = process.memoryUsage().rss;
  const timer = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 20);
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const c0 = cpu();
  const t0 = performance.now();
  const { key } = await loadScoringKey(gold);
  const t1 = performance.now();
  const c1 = cpu();
  const { result, lines } = await scoreSubstitutionFile(system, type, key);
  const t2 = performance.now();
  const c2 = cpu();
  clearInterval(timer);
  sampled = Math.max(sampled, process.memoryUsage().rss);
  console.log(
    JSON.stringify({
      type,
      items: lines.read,
      attempted: result.stats.attempted,
      precision: result.scores.precision,
      loadSeconds: (t1 - t0) / 1000,
      scoreSeconds: (t2 - t1) / 1000,
      cpuSeconds: c2 - c0,
      loadCpuSeconds: c1 - c0,
      peakMb: peakMb(sampled),
    }),
  );
}

async function main(): Promise<void> {
  const run = arg("--run");
  if (run === "best" || run === "oot") return runOne(run, process.argv[process.argv.length - 2], process.argv[process.argv.length - 1]);

  const n = Number(arg("--items") ?? 1_000_000);
  const files = await generate(n);
  const self = new URL(import.meta.url).pathname;
  const official = arg("--official");
  console.log(`load average ${fs.existsSync("/proc/loadavg") ? fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ") : "?"}`);
  console.log("type      items  gold load  scoring   wall (cpu)       items/s (wall)  vs 21 s   peak     target: < 1.05 s, < 300 MB");
  let ok = true;
  const figures: Array<Record<string, unknown>> = [];
  for (const type of ["best", "oot"] as const) {
    const child = spawnSync(process.execPath, ["--import", "tsx", self, "--run", type, files.gold, files[type]], { encoding: "utf8" });
    if (child.status !== 0) throw new Error(`${type} run failed: ${child.stderr}`);
    const r = JSON.parse(child.stdout.trim().split("\n").pop()!);
    const seconds = r.loadSeconds + r.scoreSeconds;
    const met = seconds < TARGET_SECONDS && r.peakMb < TARGET_MB;
    ok &&= met;
    figures.push({ ...r, seconds, targetSeconds: TARGET_SECONDS, targetMb: TARGET_MB, met });
    console.log(
      `${type.padEnd(4)}  ${String(r.items).padStart(9)}  ${r.loadSeconds.toFixed(2).padStart(7)} s ${r.scoreSeconds.toFixed(2).padStart(6)} s  ` +
        `${seconds.toFixed(2).padStart(6)} s (${r.cpuSeconds.toFixed(2)} s)  ${Math.round(r.items / seconds).toLocaleString("en").padStart(12)}  ` +
        `${(OFFICIAL_SECONDS / seconds).toFixed(1).padStart(5)}x  ${r.peakMb.toFixed(0).padStart(4)} MB  ${met ? "met" : "missed"}  (P = ${(100 * r.precision).toFixed(2)})`,
    );
    if (official) {
      const t = performance.now();
      try {
        const out = execFileSync("perl", [official, files[type], files.gold, "-t", type], { encoding: "utf8", maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "pipe"] });
        const w = (performance.now() - t) / 1000;
        const p = /precision = ([\d.]+)/.exec(out)?.[1] ?? "?";
        console.log(`  official score.pl: ${w.toFixed(2)} s wall (P = ${p}); lexgold is ${(w / seconds).toFixed(1)}x faster here`);
      } catch (e) {
        console.log(`  official score.pl failed: ${((e as { stderr?: string }).stderr ?? String(e)).trim().split("\n")[0]}`);
      }
    }
  }
  // --json FILE: the figures for `npm run bench` (bench/run-all.ts).
  const json = arg("--json");
  if (json) fs.writeFileSync(json, JSON.stringify({ items: n, runs: figures }));
  if (!ok) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

/**
 * The Progress tab's charts, also written into releases: answers per day for each annotator (or
 * each study's participants together), and time on task per annotator or participant. Data in,
 * Chart out (render.ts).
 */
import * as Plot from "@observablehq/plot";
import { ACCENT, type Chart, INK, MUTED, num, renderSvg, WARN } from "./render";

/** New answers one annotator (or group) gave on one day (UTC). */
export interface DayCount {
  /** YYYY-MM-DD. */
  day: string;
  who: string;
  answers: number;
}

/** The seconds one person spent per item: quantiles over their timed answers. */
export interface TaskTimes {
  who: string;
  timed: number;
  p10: number;
  q1: number;
  median: number;
  q3: number;
  p90: number;
}

const PALETTE = ["#2f5d8a", "#b5651d", "#2e6b3a", "#8a3b7a", "#5c6470", "#a1262b", "#1b7f86", "#7a6a1d", "#4b4fa8", "#6b4226"];

/** The most lines the chart draws: the busiest annotators, the rest summed as "others". */
export const LINES_MAX = 10;

function withOthers(rows: readonly DayCount[]): DayCount[] {
  const total = new Map<string, number>();
  for (const r of rows) total.set(r.who, (total.get(r.who) ?? 0) + r.answers);
  if (total.size <= LINES_MAX) return [...rows];
  const keep = new Set([...total.keys()].sort((a, b) => total.get(b)! - total.get(a)! || (a < b ? -1 : 1)).slice(0, LINES_MAX - 1));
  const others = `${total.size - keep.size} others`;
  const out = new Map<string, DayCount>();
  for (const r of rows) {
    const who = keep.has(r.who) ? r.who : others;
    const key = `${r.day}\u0000${who}`;
    const row = out.get(key) ?? { day: r.day, who, answers: 0 };
    row.answers += r.answers;
    out.set(key, row);
  }
  return [...out.values()];
}

/** Answers per day, one line per annotator (or group), named in a legend beside; a day without answers is 0. */
export function answersPerDayChart(given: readonly DayCount[], id = "answers-per-day"): Chart | null {
  if (given.length === 0) return null;
  const rows = withOthers(given);
  const days = [...new Set(rows.map((r) => r.day))].sort();
  const who = [...new Set(rows.map((r) => r.who))];
  const total = new Map(who.map((w) => [w, rows.filter((r) => r.who === w).reduce((s, r) => s + r.answers, 0)]));
  who.sort((a, b) => total.get(b)! - total.get(a)!);
  // Every day from the first to the last, each line with its zeros, so a quiet day shows as one.
  const all: string[] = [];
  for (let t = Date.parse(`${days[0]}T00:00:00Z`); t <= Date.parse(`${days.at(-1)}T00:00:00Z`); t += 86_400_000) all.push(new Date(t).toISOString().slice(0, 10));
  const by = new Map(rows.map((r) => [`${r.who}\u0000${r.day}`, r.answers]));
  const data = who.flatMap((w) => all.map((d) => ({ who: w, date: new Date(`${d}T00:00:00Z`), day: d, answers: by.get(`${w}\u0000${d}`) ?? 0 })));
  const busiest = rows.reduce((a, b) => (b.answers > a.answers ? b : a));
  const title = `Answers per day, by annotator (${all.length} day${all.length === 1 ? "" : "s"}, ${num(rows.reduce((s, r) => s + r.answers, 0))} answers)`;
  const description =
    `New answers each day from ${all[0]} to ${all.at(-1)}, one line for each of ${who.length} annotator${who.length === 1 ? "" : "s"} or groups: ` +
    who.map((w) => `${w} ${num(total.get(w)!)}`).join(", ") +
    `. The busiest: ${busiest.who} on ${busiest.day}, ${num(busiest.answers)}.`;
  const longest = Math.max(...who.map((w) => w.length));
  const single = all.length === 1;
  const { svg, narrow } = renderSvg(id, title, description, {
    width: 640,
    // Room for the longest tick (the busiest day's count, and a digit more where the axis rounds up): 100,000 was cut.
    marginLeft: Math.max(50, (num(busiest.answers).length + 1) * 7 + 12),
    marginRight: Math.min(200, longest * 7 + 30),
    height: Math.max(280, 60 + 18 * who.length),
    marginBottom: 36,
    // Whole days on the axis (never hours): each day up to a fortnight, each week up to three months, else as Plot chooses.
    x: single ? { type: "band", label: null, tickFormat: () => all[0] } : { type: "utc", label: null, ...(all.length <= 14 ? { ticks: "day" } : all.length <= 92 ? { ticks: "week" } : {}) },
    y: { label: "answers", labelArrow: "none", grid: true, nice: true, tickFormat: (d: number) => (Number.isInteger(d) ? num(d) : "") },
    color: { domain: who, range: PALETTE },
    marks: [
      Plot.ruleY([0], { stroke: MUTED }),
      ...(single ? [] : [Plot.line(data, { x: "date", y: "answers", stroke: "who", strokeWidth: 2 })]),
      Plot.dot(data, { x: single ? () => all[0] : "date", y: "answers", fill: "who", r: 3, title: (d: (typeof data)[number]) => `${d.who}, ${d.day}: ${num(d.answers)} answers` }),
      // A legend in the right margin, one line a person (end labels would overlap where lines meet).
      ...who.flatMap((w, i) => [
        Plot.dot([w], { frameAnchor: "top-right", dx: 10, dy: 6 + 18 * i, r: 4, fill: PALETTE[i % PALETTE.length] }),
        Plot.text([w], { frameAnchor: "top-right", dx: 18, dy: 6 + 18 * i, text: (d: string) => d, textAnchor: "start", lineAnchor: "middle", fill: INK, fontSize: 12 }),
      ]),
    ],
  });
  return {
    id,
    fileName: "answers-per-day.svg",
    title,
    description,
    svg,
    narrow,
    table: { columns: ["day", "annotator", "answers"], rows: [...rows].sort((a, b) => (a.day === b.day ? a.who.localeCompare(b.who) : a.day < b.day ? -1 : 1)).map((r) => [r.day, r.who, r.answers]) },
  };
}

/** The most people the time-on-task chart draws: the fastest medians first (the ones to look at). */
export const TIMES_MAX = 40;

/**
 * Seconds per item for each annotator or participant (the server's own measure: the time since
 * their previous save): a bar from the first to the third quartile, the median marked, a line from
 * the 10th to the 90th percentile; the project's "too fast" threshold drawn across. Fastest first.
 */
export function timeOnTaskChart(rows: readonly TaskTimes[], thresholdSeconds: number, id = "time-on-task"): Chart | null {
  if (rows.length === 0) return null;
  const sorted = [...rows].sort((a, b) => a.median - b.median);
  const shown = sorted.slice(0, TIMES_MAX);
  const fast = sorted.filter((r) => r.median < thresholdSeconds);
  const title = `Time on task: seconds per item, ${shown.length < rows.length ? `the ${shown.length} fastest of ${rows.length}` : `${rows.length}`} annotator${rows.length === 1 ? "" : "s"}`;
  const description =
    `For each annotator or participant, the seconds spent per item over their timed answers: a bar from the first to the third quartile with the median marked, a line from the 10th to the 90th percentile, fastest median first. ` +
    `The dashed line is the project's threshold of ${num(thresholdSeconds)} s: ${fast.length === 0 ? "nobody's median is below it" : `${fast.length} median${fast.length === 1 ? " is" : "s are"} below it (${fast.slice(0, 5).map((r) => r.who).join(", ")}${fast.length > 5 ? ", …" : ""})`}.`;
  const longest = Math.max(...shown.map((r) => r.who.length));
  const hi = Math.max(thresholdSeconds * 1.5, ...shown.map((r) => r.p90));
  const { svg, narrow } = renderSvg(id, title, description, {
    width: 640,
    height: 60 + shown.length * 26,
    marginLeft: Math.min(220, longest * 7 + 16),
    marginRight: 24,
    marginBottom: 40,
    x: { type: "log", domain: [Math.max(0.5, Math.min(...shown.map((r) => r.p10)) * 0.8), hi * 1.1], label: "seconds per item (log scale)", labelAnchor: "center", labelArrow: "none", grid: true },
    y: { domain: shown.map((r) => r.who), label: null },
    marks: [
      Plot.ruleY(shown, { y: "who", x1: "p10", x2: "p90", stroke: MUTED }),
      Plot.barX(shown, { y: "who", x1: "q1", x2: "q3", fill: ACCENT, fillOpacity: 0.35, inset: 5 }),
      Plot.tickX(shown, {
        y: "who",
        x: "median",
        stroke: (r: TaskTimes) => (r.median < thresholdSeconds ? WARN : INK),
        strokeWidth: 3,
        inset: 3,
        title: (r: TaskTimes) => `${r.who}: median ${num(r.median)} s (quartiles ${num(r.q1)}–${num(r.q3)} s) over ${num(r.timed)} timed answers`,
      }),
      Plot.ruleX([thresholdSeconds], { stroke: WARN, strokeDasharray: "4,3" }),
      Plot.text([thresholdSeconds], { x: (d: number) => d, frameAnchor: "top", dy: -2, dx: 4, textAnchor: "start", text: () => `too fast below ${num(thresholdSeconds)} s`, fill: WARN }),
    ],
  });
  return {
    id,
    fileName: "time-on-task.svg",
    title,
    description,
    svg,
    narrow,
    table: {
      columns: ["annotator", "timed answers", "10th percentile (s)", "first quartile (s)", "median (s)", "third quartile (s)", "90th percentile (s)"],
      rows: sorted.map((r) => [r.who, r.timed, num(r.p10), num(r.q1), num(r.median), num(r.q3), num(r.p90)]),
    },
  };
}

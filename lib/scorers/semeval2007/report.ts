/**
 * The official scorer's text output, line for line (reference §6): the totals
 * as percentages rounded half-up to two decimals, the same labels, and the
 * `-v` lines with numbers as Perl prints them (15 significant digits). Where
 * the official scorer would die dividing by zero, an undefined figure prints
 * as an empty string, as the official mw output already does. JSON with the
 * issue's keys. Pure.
 */
import { cFixed } from "../shared/table";
import { type MwItem, type MwResult, type MwStats, mwScores } from "./mw";
import { type RepairReport, type Utf8Report } from "./run";
import { type ItemScore, type SubstitutionResult, type SubstitutionStats, type SubstitutionType, substitutionScores } from "./substitution";

/**
 * A number as Perl prints it: `printf("%.15g")` with glibc's rounding (the
 * exact binary value, ties to even). 1/3 → "0.333333333333333", 1e-5 → "1e-05".
 */
export function perlNumber(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Inf";
  if (x === -Infinity) return "-Inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const sign = x < 0 ? "-" : "";
  const { digits, exp } = significant15(Math.abs(x));
  let out: string;
  if (exp < -4 || exp >= 15) {
    const mant = stripZeros(digits[0] + "." + digits.slice(1));
    out = `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  } else if (exp >= 0) {
    out = stripZeros(digits.slice(0, exp + 1) + "." + digits.slice(exp + 1));
  } else {
    out = stripZeros("0." + "0".repeat(-exp - 1) + digits);
  }
  return sign + out;
}

function stripZeros(s: string): string {
  if (!s.includes(".")) return s;
  return s.replace(/0+$/, "").replace(/\.$/, "");
}

/** 15 significant digits of a positive finite x, rounded to nearest (ties to even on the exact value), and the decimal exponent. */
function significant15(x: number): { digits: string; exp: number } {
  // toExponential rounds the exact value too, but ties away from zero; a tie
  // shows as "…50" in 17 digits, and only then is the exact expansion needed.
  const e16 = x.toExponential(16);
  if (!/50e/.test(e16)) {
    const [m, e] = x.toExponential(14).split("e");
    return { digits: m.replace(".", ""), exp: Number(e) };
  }
  const exact = cFixed(x, 1074).replace(/0+$/, "");
  const [ip, fp = ""] = exact.split(".");
  let exp: number;
  let all: string;
  if (ip !== "0") {
    exp = ip.length - 1;
    all = ip + fp;
  } else {
    const lead = fp.length - fp.replace(/^0+/, "").length;
    exp = -lead - 1;
    all = fp.slice(lead);
  }
  all = all.replace(/0+$/, "");
  if (all.length <= 15) return { digits: all.padEnd(15, "0"), exp };
  const head = all.slice(0, 15);
  const rest = all.slice(15);
  const up = rest[0] > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || Number(head[14]) % 2 === 1));
  if (!up) return { digits: head, exp };
  const bumped = (BigInt(head) + 1n).toString();
  return bumped.length > 15 ? { digits: bumped.slice(0, 15), exp: exp + 1 } : { digits: bumped, exp };
}

/**
 * A proportion as the official scorer prints it: ×100, rounded half-up to two
 * decimals (`int(x*100*100 + .5)/100`), zero-padded (`10.52`, `50.00`, `0.00`);
 * "" when undefined.
 */
export function officialPercent(x: number | null): string {
  if (x === null) return "";
  const r = Math.trunc(x * 100 * 100 + 0.5) / 100;
  const s = perlNumber(r);
  const dot = s.indexOf(".");
  if (dot < 0) return s + ".00";
  return s.length - dot - 1 >= 2 ? s : s.padEnd(dot + 3, "0");
}

/** The four total lines of best or oot. */
export function formatSubstitutionTotals(type: SubstitutionType, stats: SubstitutionStats): string[] {
  const s = substitutionScores(stats);
  return [
    `Total = ${stats.total}, attempted = ${stats.attempted}`,
    `precision = ${officialPercent(s.precision)}, recall = ${officialPercent(s.recall)}`,
    `Total with mode ${stats.totalWithMode} attempted ${stats.attemptedWithMode}`,
    `${type === "best" ? "Mode precision" : "precision"} = ${officialPercent(s.modePrecision)}, ${type === "best" ? "Mode recall" : "recall"} = ${officialPercent(s.modeRecall)}`,
  ];
}

/** The `-v` lines of one best item. */
export function formatBestItem(item: ItemScore): string[] {
  const out: string[] = [];
  const head = `${item.systemLexelt} Item ${item.id}`;
  if (item.mode !== null) out.push(`${head} mode '${item.mode}' : system '${item.guesses[0]}'${item.modeHit ? "  correct" : " wrong"}`);
  const c = perlNumber(item.credit);
  // The official prints the undivided credit after "score is" too (reference Q10).
  out.push(`${head} credit ${c} guesses ${item.guesses.length} human responses ${item.humanResponses}: score is ${c}`);
  return out;
}

/** The `-v` lines of one oot item. */
function formatOotItem(item: ItemScore): string[] {
  const out: string[] = [];
  const head = `${item.systemLexelt} Item ${item.id}`;
  if (item.truncated) out.push(`${head} exceeded 10 guesses`);
  if (item.mode !== null) out.push(`${head} mode '${item.mode}'  ${item.modeHit ? "found in guesses" : "not found"}`);
  const c = perlNumber(item.credit);
  out.push(`${head} credit ${c} human responses ${item.humanResponses}: score is ${c}`);
  return out;
}

export function formatSubstitutionItem(type: SubstitutionType, item: ItemScore): string[] {
  return type === "best" ? formatBestItem(item) : formatOotItem(item);
}

/** The `-v` line of one mw item. */
export function formatMwItem(item: MwItem): string {
  return item.mode !== null
    ? `${item.systemLexelt} ${item.id} human mode is ${item.mode} system ${item.answer}`
    : `${item.systemLexelt} ${item.id} No MW found by annotators, system ${item.answer}`;
}

/** The four total lines of mw. Counts of 0 print empty, as the official's unset Perl counters do. */
export function formatMwTotals(stats: MwStats): string[] {
  const s = mwScores(stats);
  const n = (k: number) => (k === 0 ? "" : String(k));
  return [
    `Total MWs in GS = ${stats.totalMultiwords}, System found ${n(stats.systemFound)} of which ${n(stats.genuine)} were genuine`,
    `Detection precision = ${officialPercent(s.detectionPrecision)}, recall = ${officialPercent(s.detectionRecall)}`,
    "Number that matched GS",
    `Identification precision = ${officialPercent(s.identificationPrecision)}, recall = ${officialPercent(s.identificationRecall)}`,
  ];
}

/**
 * The whole official output of a run scored without streaming: the `-v` lines
 * of `items` (when given) then the totals; every line ends with "\n".
 */
export function formatReport(result: SubstitutionResult | MwResult, items: readonly (ItemScore | MwItem)[] = []): string {
  const lines: string[] = [];
  if (result.type === "mw") {
    for (const i of items) lines.push(formatMwItem(i as MwItem));
    lines.push(...formatMwTotals(result.stats));
  } else {
    for (const i of items) lines.push(...formatSubstitutionItem(result.type, i as ItemScore));
    lines.push(...formatSubstitutionTotals(result.type, result.stats));
  }
  return lines.map((l) => l + "\n").join("");
}

/** A breakdown table (per PoS or lexelt): a header, then one tab-separated row per group, in percentages. */
export function formatGroups(by: string, result: SubstitutionResult): string[] {
  const mode = result.type === "best" ? "Mode " : "mode ";
  const rows = [[by, "total", "attempted", "precision", "recall", "total with mode", "attempted with mode", `${mode}precision`, `${mode}recall`].join("\t")];
  for (const g of result.groups ?? []) {
    rows.push(
      [
        g.group,
        g.stats.total,
        g.stats.attempted,
        officialPercent(g.scores.precision),
        officialPercent(g.scores.recall),
        g.stats.totalWithMode,
        g.stats.attemptedWithMode,
        officialPercent(g.scores.modePrecision),
        officialPercent(g.scores.modeRecall),
      ].join("\t"),
    );
  }
  return rows;
}

/** The JSON object of the issue: proportions in [0, 1], unrounded, null where undefined. */
export function substitutionJson(type: SubstitutionType, stats: SubstitutionStats) {
  const s = substitutionScores(stats);
  return {
    type,
    total: stats.total,
    attempted: stats.attempted,
    precision: s.precision,
    recall: s.recall,
    totalWithMode: stats.totalWithMode,
    attemptedWithMode: stats.attemptedWithMode,
    modePrecision: s.modePrecision,
    modeRecall: s.modeRecall,
  };
}

export function mwJson(stats: MwStats) {
  const s = mwScores(stats);
  return {
    type: "mw" as const,
    totalMultiwords: stats.totalMultiwords,
    systemFound: stats.systemFound,
    genuine: stats.genuine,
    matched: stats.matched,
    detectionPrecision: s.detectionPrecision,
    detectionRecall: s.detectionRecall,
    identificationPrecision: s.identificationPrecision,
    identificationRecall: s.identificationRecall,
  };
}

/**
 * What a repaired run would change, for a default run's reader (stderr after
 * the output): the repaired figures, then each rule with how many items it
 * changed and the first few ids. No lines when no figure differs.
 */
export function formatRepairNotice(report: RepairReport): string[] {
  if (!report.figuresDiffer) return [];
  const r = report.result;
  const totals = r.type === "mw" ? formatMwTotals(r.stats) : formatSubstitutionTotals(r.type, r.stats);
  const out = ["the figures above are score.pl's; with the documented repairs (--repaired) they would be:", ...totals.map((l) => "  " + l)];
  out.push(report.changes.length === 1 ? "the repair behind the difference:" : "the repairs behind the difference:");
  for (const c of report.changes) {
    out.push(`  ${c.rule}: ${c.items} item${c.items === 1 ? "" : "s"} (${c.ids.join(", ")}${c.items > c.ids.length ? ", …" : ""}); score.pl: ${c.official}; repaired: ${c.repaired}`);
  }
  return out;
}

/** The repaired figures and the rules behind them, for --json (null when no figure differs). */
export function repairJson(report: RepairReport | null) {
  if (!report || !report.figuresDiffer) return null;
  const r = report.result;
  return {
    figures: r.type === "mw" ? mwJson(r.stats) : substitutionJson(r.type, r.stats),
    changes: report.changes.map((c) => ({ rule: c.rule, items: c.items, ids: c.ids })),
  };
}

/**
 * What reading the files as UTF-8 text would give, for a default run's reader
 * (stderr after the output, after the repair notice): the UTF-8 figures. No
 * lines when no figure differs.
 */
export function formatUtf8Notice(report: Utf8Report): string[] {
  if (!report.figuresDiffer) return [];
  const r = report.result;
  const totals = r.type === "mw" ? formatMwTotals(r.stats) : formatSubstitutionTotals(r.type, r.stats);
  return [
    "the figures above are score.pl's reading the files as bytes, where a letter outside ASCII is no word character (`métodos` reads as `todos`);",
    "read as UTF-8 text, as `perl -CSD score.pl` reads them (--utf8), they would be:",
    ...totals.map((l) => "  " + l),
  ];
}

/** The UTF-8 figures, for --json (null when no figure differs). */
export function utf8Json(report: Utf8Report | null) {
  if (!report || !report.figuresDiffer) return null;
  const r = report.result;
  return { figures: r.type === "mw" ? mwJson(r.stats) : substitutionJson(r.type, r.stats) };
}

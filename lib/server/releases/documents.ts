/**
 * The documents of a release: the datasheet (Gebru et al., "Datasheets for Datasets": its seven
 * sections, each with what the app knows stated and the coordinator's own answers), CITATION.cff
 * (Citation File Format 1.2.0), a README.md that is a Hugging Face dataset card (YAML header with
 * `configs` naming the JSON Lines files, so `datasets.load_dataset(folder)` reads them) and
 * CHANGES.md. Strings in YAML are written as JSON strings, which YAML reads as double-quoted scalars.
 */
import "server-only";
import { DATASHEET_QUESTIONS, type DatasheetKey, type ReleaseFacts, type ReleaseSummary } from "./release-types";
import type { ReleaseSnapshot } from "./snapshot";

interface DocumentInput {
  snapshot: ReleaseSnapshot;
  summary: ReleaseSummary;
  createdAt: Date;
  createdBy: string | null;
  charts: string[];
  stem: string;
}

const q = (s: string) => JSON.stringify(s);
const int = (n: number) => n.toLocaleString("en-US");
const pct = (x: number | null) => (x === null ? "undefined" : `${(100 * x).toFixed(1)} %`);
const day = (ms: number | null) => (ms === null ? "—" : new Date(ms).toISOString().slice(0, 10));
const plural = (n: number, w: string) => `${int(n)} ${w}${n === 1 ? "" : "s"}`;

function answer(input: DocumentInput, key: DatasheetKey): string | null {
  const a = input.snapshot.datasheet[key]?.trim();
  return a ? a : null;
}

function title(input: DocumentInput): string {
  return answer(input, "title") ?? input.snapshot.project.name;
}

/** One author a line: "Family, Given" becomes family-names and given-names; anything else a name. */
function authors(input: DocumentInput): Array<{ family?: string; given?: string; name?: string }> {
  const lines = (answer(input, "authors") ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length === 0) return [{ name: `The ${input.snapshot.project.name} annotation project` }];
  return lines.map((l) => {
    const m = /^([^,]+),\s*(.+)$/.exec(l);
    return m ? { family: m[1].trim(), given: m[2].trim() } : { name: l };
  });
}

/** An SPDX-looking licence id, or null. */
function licence(input: DocumentInput): string | null {
  const l = answer(input, "licence");
  return l && /^[A-Za-z0-9.+-]+$/.test(l) ? l : null;
}

function factLines(f: ReleaseFacts, language: string): Record<string, string[]> {
  const a = f.agreement;
  const iv = (i: { low: number; high: number } | null) => (i ? ` (95 % interval ${pct(i.low)}–${pct(i.high)})` : "");
  return {
    Composition: [
      `${plural(f.instances, "instance")} (sentences, each with one target word) in ${plural(f.lexelts, "lexelt")}; language: ${language}.`,
      `${plural(f.excludedInstances, "instance")} excluded by the coordinator (listed with the reason in data/instances.jsonl).`,
      `${plural(f.goldLines, "gold line")} (instances with at least one substitute) and ${plural(f.mwgoldLines, "mwgold line")}.`,
      `${plural(f.answers, "answer")}: ${int(f.countedAnswers)} counted in the gold, ${int(f.leftOutAnswers)} left out, the rest on excluded instances (data/answers.jsonl marks each).`,
      `Answers per instance: ${int(f.overlap.min)} at least, ${f.overlap.median} in the median, ${int(f.overlap.max)} at most.`,
      "Annotators are named by pseudonyms (A001, …), the same in every release of this project; no account names, platform ids or notes unless the release says so below.",
    ],
    "Collection process": [
      `${plural(f.annotators, "annotator")} with accounts and ${plural(f.participants, "crowd participant")} answered, between ${day(f.firstAnswer)} and ${day(f.lastAnswer)}.`,
      "Each gave up to three substitutes for the target word, or NAME or NIL, and said whether the target is part of a multiword, in lexgold's annotation workspace (the SemEval-2007 protocol); annotators were not shown the part of speech.",
      f.trainingRequired
        ? `Training was required: ${plural(f.trainingItems, "training item")}, pass mark ${f.trainingPassMark} %; ${plural(f.trainingPassed, "attempt")} passed, ${int(f.trainingFailed)} failed.`
        : `Training was not required (${plural(f.trainingItems, "training item")} set).`,
      `${plural(f.attentionChecks, "hidden attention check")} among the instances (never part of the gold).`,
    ],
    "Preprocessing, cleaning, labelling": [
      "The gold is derived from the answers as SemEval-2007 did: substitutes counted per instance, sorted by count; the mode is the unique most frequent substitute; T holds the instances with at least two substitutes.",
      `${plural(f.lemmaDecisions, "lemma decision")} by the coordinator (typed forms kept or mapped to lemmas), ${plural(f.adjudications, "adjudication")} of single answers in force (the answers keep what was typed; counted_substitutes shows what the gold counts).`,
      `Agreement over ${plural(a.items, "item")} in T: pairwise ${pct(a.pairwise)}${iv(a.pairwiseInterval)} over ${plural(a.pairs, "pair")}; with the mode ${pct(a.modeAgreement)}; Krippendorff's alpha (MASI) ${a.alphaMasi === null ? "undefined" : a.alphaMasi.toFixed(3)}${a.alphaInterval ? ` (95 % interval ${a.alphaInterval.low.toFixed(3)}–${a.alphaInterval.high.toFixed(3)})` : ""}.`,
      `${plural(f.judgementRounds, "judgement round")} held on this project (not part of this release).`,
    ],
  };
}

export function datasheetMarkdown(input: DocumentInput): string {
  const { summary, snapshot } = input;
  const facts = factLines(summary.facts, snapshot.project.language);
  const out = [`# Datasheet: ${title(input)} ${summary.version}`, "", `Made with lexgold on ${input.createdAt.toISOString().slice(0, 10)}${input.createdBy ? ` by ${input.createdBy}` : ""}, from the project's data as it stood at one moment (data version ${snapshot.dataVersion}). The questions follow Gebru et al., "Datasheets for Datasets" (2021). Facts the application knows are stated; the rest are the coordinator's answers.`, ""];
  const sections = ["Motivation", "Composition", "Collection process", "Preprocessing, cleaning, labelling", "Uses", "Distribution", "Maintenance"];
  for (const section of sections) {
    out.push(`## ${section}`, "");
    for (const line of facts[section] ?? []) out.push(`- ${line}`);
    if (section === "Composition") {
      out.push(`- This release ${summary.include.names ? "carries account names beside the pseudonyms" : "carries no account names"} and ${summary.include.notes ? "carries the annotators' flags and notes" : "no flags or notes"}.`);
    }
    if (section === "Distribution") {
      out.push(`- Files: the corpus as lexelt XML, gold and mwgold in the task's format, CoInCo XML, SWORDS JSON and TSAR TSV, JSON Lines under data/, the agreement report under agreement/; SHA256SUMS checks them (\`sha256sum -c SHA256SUMS\`).`);
      for (const [format, lost] of Object.entries(summary.losses)) if (lost.length) out.push(`- What ${format} cannot carry: ${lost.join(" ")}`);
    }
    if (facts[section]?.length || section === "Composition" || section === "Distribution") out.push("");
    for (const qn of DATASHEET_QUESTIONS.filter((x) => x.section === section || (section === "Distribution" && x.section === "Citation"))) {
      out.push(`**${qn.question}**`, "", answer(input, qn.key) ?? "_Not answered yet._", "");
    }
  }
  return out.join("\n");
}

export function citationCff(input: DocumentInput): string {
  const out = [
    "cff-version: 1.2.0",
    'message: "If you use this dataset, please cite it as below."',
    "type: dataset",
    `title: ${q(title(input))}`,
    `version: ${q(input.summary.version)}`,
    `date-released: ${q(input.createdAt.toISOString().slice(0, 10))}`,
    "authors:",
  ];
  for (const a of authors(input)) {
    if (a.name) out.push(`  - name: ${q(a.name)}`);
    else out.push(`  - family-names: ${q(a.family!)}`, `    given-names: ${q(a.given!)}`);
  }
  const l = licence(input);
  if (l) out.push(`license: ${q(l)}`);
  out.push(`abstract: ${q(`A lexical substitution gold standard of ${input.summary.facts.instances} instances in ${input.summary.facts.lexelts} lexelts (${input.snapshot.project.language}), made the SemEval-2007 way.`)}`);
  out.push("keywords:", '  - "lexical substitution"', '  - "gold standard"');
  return out.join("\n") + "\n";
}

export function datasetCard(input: DocumentInput): string {
  const { summary, snapshot, stem } = input;
  const f = summary.facts;
  const l = licence(input);
  const yaml = [
    "---",
    `pretty_name: ${q(title(input))}`,
    "language:",
    `  - ${q(snapshot.project.language.split("-")[0])}`,
    ...(l ? [`license: ${q(l.toLowerCase())}`] : []),
    "tags:",
    '  - "lexical-substitution"',
    "configs:",
    '  - config_name: "gold"',
    "    default: true",
    "    data_files:",
    '      - split: "test"',
    '        path: "data/gold.jsonl"',
    '  - config_name: "instances"',
    "    data_files:",
    '      - split: "test"',
    '        path: "data/instances.jsonl"',
    '  - config_name: "answers"',
    "    data_files:",
    '      - split: "test"',
    '        path: "data/answers.jsonl"',
    "---",
  ];
  const body = [
    "",
    `# ${title(input)} ${summary.version}`,
    "",
    `A lexical substitution gold standard: ${int(f.instances)} sentences in ${int(f.lexelts)} lexelts, each with a target word and the substitutes ${int(f.annotators + f.participants)} annotators gave for it (${int(f.countedAnswers)} answers counted), made the SemEval-2007 way (McCarthy & Navigli) with lexgold. Pairwise agreement ${pct(f.agreement.pairwise)}, agreement with the mode ${pct(f.agreement.modeAgreement)}.`,
    "",
    "## Loading",
    "",
    "```python",
    "from datasets import load_dataset",
    `gold = load_dataset("path/to/${summary.folder}", "gold", split="test")      # or "instances", "answers"`,
    "```",
    "",
    "Or read the JSON Lines directly: one JSON object a line in `data/gold.jsonl` (lexelt, instance, pos, substitutes with counts, mode, in_t, multiword, gold_line), `data/instances.jsonl` (the sentence, its target and any exclusion) and `data/answers.jsonl` (every answer, by pseudonym, with its status: counted, left out or on an excluded instance, and why).",
    "",
    "## Files",
    "",
    `- \`formats/${stem}.xml\`: the corpus as lexelt XML; \`formats/${stem}.gold\` and \`.mwgold\`: the gold in the task's format, for the official scorer.`,
    `- \`formats/${stem}.coinco.xml\`, \`.swords.json\`, \`.tsar.tsv\`: the same gold in the CoInCo, SWORDS and TSAR formats.`,
    `- \`agreement/agreement.json\` and \`.txt\`: the agreement report${input.charts.length ? `, with its plots (${input.charts.map((c) => `\`${c}\``).join(", ")})` : ""}.`,
    "- `guidelines.md`: what the annotators were told. `DATASHEET.md`: the datasheet. `CITATION.cff`: how to cite it. `CHANGES.md`: what changed since the previous release.",
    "- `SHA256SUMS`: the SHA-256 of every file (`sha256sum -c SHA256SUMS`).",
    "",
    "## Citation",
    "",
    "See `CITATION.cff`.",
    "",
  ];
  return [...yaml, ...body].join("\n");
}

export function changesMarkdown(summary: ReleaseSummary): string {
  const c = summary.changes;
  if (!c) return `# Changes in ${summary.version}\n\nThe first release of this project.\n`;
  const out = [`# Changes in ${summary.version} since ${c.previous}`, ""];
  out.push(`- Instances: ${int(c.facts.before.instances)} → ${int(c.facts.after.instances)} (${int(c.instances.added)} added, ${int(c.instances.removed)} removed).`);
  out.push(`- Gold lines: ${int(c.facts.before.goldLines)} → ${int(c.facts.after.goldLines)} (${int(c.goldLines.added)} added, ${int(c.goldLines.removed)} removed, ${int(c.goldLines.changed)} changed).`);
  out.push(`- Answers: ${int(c.facts.before.answers)} → ${int(c.facts.after.answers)}.`);
  out.push(`- Pairwise agreement: ${pct(c.facts.before.agreement.pairwise)} → ${pct(c.facts.after.agreement.pairwise)}; with the mode: ${pct(c.facts.before.agreement.modeAgreement)} → ${pct(c.facts.after.agreement.modeAgreement)}.`);
  if (c.goldLines.examples.length) {
    out.push("", "Some of the gold lines that changed:", "");
    for (const e of c.goldLines.examples) out.push(`- ${e.instanceId}: ${e.before === null ? "(none)" : `\`${e.before}\``} → ${e.after === null ? "(none)" : `\`${e.after}\``}`);
  }
  return out.join("\n") + "\n";
}

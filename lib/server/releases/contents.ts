/**
 * The files of a release, written from its snapshot: the corpus and gold in the task's formats,
 * the dataset formats (through the datasets' own writers: the snapshot holds their output), the
 * data as JSON Lines, the anonymised answers, the agreement report (JSON and text) and its plots,
 * the guidelines, the datasheet, CITATION.cff, a README that is a Hugging Face dataset card,
 * CHANGES.md and SHA256SUMS. Every answer is named by the annotator's pseudonym only, unless the
 * release was asked to carry names (or notes).
 */
import "server-only";
import crypto from "node:crypto";
import { formatAgreement } from "../../lexsub/agreement";
import { formatLexeltXml } from "../../lexsub/formats/lexelt";
import { parseLexeltItem } from "../../lexsub/types";
import type { ReleaseSnapshot } from "./snapshot";
import { citationCff, datasetCard, datasheetMarkdown, changesMarkdown } from "./documents";
import type { ManifestEntry, ReleaseChanges, ReleaseInclude, ReleaseSummary } from "./release-types";

interface ReleaseFile {
  path: string;
  content: Buffer;
}

/** A safe file and folder name from a project's name. */
export function fileStem(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "") || "project";
}

/** The name of a BCP 47 language in English, lower case, for lexelt XML's `lang` ("en" → "english"). */
function languageName(tag: string): string {
  try {
    return (new Intl.DisplayNames(["en"], { type: "language" }).of(tag) ?? tag).toLowerCase();
  } catch {
    return tag;
  }
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : "");

/** The pseudonym of every annotator with an answer: those given before, and the next numbers for the others (by account id). */
export function assignPseudonyms(snapshot: ReleaseSnapshot): { all: Map<number, string>; added: Array<{ userId: number; pseudonym: string }> } {
  const all = new Map(snapshot.pseudonyms);
  const used = [...all.values()].map((p) => Number(p.slice(1))).filter(Number.isFinite);
  let next = used.length ? Math.max(...used) + 1 : 1;
  const added: Array<{ userId: number; pseudonym: string }> = [];
  const missing = [...new Set(snapshot.answers.map((a) => a.userId))].filter((id) => !all.has(id)).sort((a, b) => a - b);
  for (const userId of missing) {
    const pseudonym = `A${String(next++).padStart(3, "0")}`;
    all.set(userId, pseudonym);
    added.push({ userId, pseudonym });
  }
  return { all, added };
}

/** The agreement report with every annotator's name replaced by their pseudonym. */
function anonymisedAgreement(snapshot: ReleaseSnapshot, pseudonyms: Map<number, string>) {
  const byName = new Map(snapshot.answers.map((a) => [a.name, pseudonyms.get(a.userId)!]));
  return { ...snapshot.agreement, perAnnotator: snapshot.agreement.perAnnotator.map((p) => ({ ...p, annotator: byName.get(p.annotator) ?? p.annotator })) };
}

export interface ReleaseContents {
  files: ReleaseFile[];
  summary: ReleaseSummary;
  manifest: ManifestEntry[];
}

/**
 * Every file of the release, under one folder `<project>-<version>/`, SHA256SUMS last.
 * `charts`: the agreement plots as SVG (file name → SVG text), the same the pages draw.
 */
export function releaseFiles(
  snapshot: ReleaseSnapshot,
  opts: { version: string; createdAt: Date; createdBy: string | null; include: ReleaseInclude; pseudonyms: Map<number, string>; changes: ReleaseChanges | null; charts: Map<string, string> },
): ReleaseContents {
  const { project, gold } = snapshot;
  const stem = fileStem(project.name);
  const folder = `${stem}-${opts.version}`;
  const include = { names: opts.include.names === true, notes: opts.include.notes === true };
  const files: ReleaseFile[] = [];
  const add = (p: string, text: string) => files.push({ path: p, content: Buffer.from(text, "utf8") });

  // The corpus and the gold in the task's formats.
  const corpus = {
    lang: languageName(project.language),
    lexelts: snapshot.corpus.map((l) => {
      const parts = parseLexeltItem(l.lexelt);
      return {
        item: l.lexelt,
        lemma: parts?.lemma ?? l.lexelt,
        pos: parts?.pos ?? "",
        originalPos: parts?.originalPos ?? null,
        line: 0,
        instances: l.instances.map((i) => ({ id: i.id, before: i.before, head: i.head, after: i.after, line: 0 })),
      };
    }),
  };
  add(`formats/${stem}.xml`, formatLexeltXml(corpus));
  add(`formats/${stem}.gold`, snapshot.goldText);
  add(`formats/${stem}.mwgold`, snapshot.mwgoldText);
  add(`formats/${stem}.coinco.xml`, snapshot.datasets.coinco.text);
  add(`formats/${stem}.swords.json`, snapshot.datasets.swords.text);
  add(`formats/${stem}.tsar.tsv`, snapshot.datasets.tsar.text);
  const losses = { coinco: snapshot.datasets.coinco.lost, swords: snapshot.datasets.swords.lost, tsar: snapshot.datasets.tsar.lost };

  // The data as JSON Lines (the dataset card's configs).
  const instanceRows = snapshot.corpus.flatMap((l) =>
    l.instances.map((i) => ({ lexelt: l.lexelt, instance: i.id, before: i.before, target: i.head, after: i.after, sentence: `${i.before}${i.head}${i.after}`, excluded: i.excluded })),
  );
  add("data/instances.jsonl", jsonl(instanceRows));
  add(
    "data/gold.jsonl",
    jsonl(
      gold.items
        .filter((i) => i.excluded === null)
        .map((i) => ({
          lexelt: i.lexelt,
          instance: i.instanceId,
          pos: i.pos,
          substitutes: i.entries.map((e) => ({ substitute: e.substitute, count: e.count })),
          mode: i.mode,
          in_t: i.inT,
          multiword: i.multiword,
          multiwords: i.mwEntries.map((e) => ({ phrase: e.substitute, count: e.count })),
          gold_line: i.line,
        })),
    ),
  );
  add(
    "data/answers.jsonl",
    jsonl(
      snapshot.answers.map((a) => ({
        annotator: opts.pseudonyms.get(a.userId)!,
        ...(include.names ? { name: a.name } : {}),
        lexelt: a.response.lexelt,
        instance: a.response.instanceId,
        answer: a.response.kind,
        substitutes: a.response.substitutes,
        multiword: a.response.multiword,
        status: a.status,
        reason: a.reason,
        counted_answer: a.counted === null ? null : a.counted === "STRUCK" ? "STRUCK" : a.counted.kind,
        counted_substitutes: a.counted === null || a.counted === "STRUCK" ? null : a.counted.substitutes,
        ...(include.notes ? { flag: a.flag, note: a.note } : {}),
      })),
    ),
  );

  // Agreement: the report (names replaced), as text, and the plots.
  const agreement = anonymisedAgreement(snapshot, opts.pseudonyms);
  add("agreement/agreement.json", JSON.stringify(agreement, null, 2) + "\n");
  add("agreement/agreement.txt", formatAgreement(`${project.name} ${opts.version}`, agreement));
  for (const [name, svg] of opts.charts) add(`agreement/${name}`, svg);

  const summary: ReleaseSummary = { project: project.name, version: opts.version, language: project.language, folder, include, facts: snapshot.facts, changes: opts.changes, losses };
  const meta = { snapshot, summary, createdAt: opts.createdAt, createdBy: opts.createdBy, charts: [...opts.charts.keys()], stem };
  add("guidelines.md", project.guidelines.trim() ? project.guidelines.trimEnd() + "\n" : "_No guidelines were written for this project._\n");
  add("DATASHEET.md", datasheetMarkdown(meta));
  add("CITATION.cff", citationCff(meta));
  add("CHANGES.md", changesMarkdown(summary));
  add("README.md", datasetCard(meta));

  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifest = files.map((f) => ({ path: f.path, bytes: f.content.length, sha256: crypto.createHash("sha256").update(f.content).digest("hex") }));
  // sha256sum -c reads this: "<hex>  <path>" per line.
  files.push({ path: "SHA256SUMS", content: Buffer.from(manifest.map((m) => `${m.sha256}  ${m.path}`).join("\n") + "\n", "utf8") });
  return { files: files.map((f) => ({ path: `${folder}/${f.path}`, content: f.content })), summary, manifest };
}

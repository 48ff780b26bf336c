/**
 * Ranking measures on the Scoring tab (issue #16): ranked system outputs
 * scored against a TSAR/MLSP gold, a SWORDS dataset or a weighted gold (the
 * project's own, for GAP and P@k), ranked in one table. Scored on submit;
 * nothing is stored. Coordinators of the project only.
 */
import "server-only";
import fs from "node:fs";
import { gunzipSync } from "node:zlib";
import type { Db } from "../../../db/client";
import { type Benchmark, formatRankTable, isBenchmark, isGapVariant, type RankedFormat, RANKED_FORMATS, rankRuns, type RankTable } from "../../scorers/ranking";
import { type Diagnostic, formatDiagnostic, hasErrors } from "../../lexsub/diagnostics";
import { decodePythonUtf8 } from "../../scorers/shared/python-text";
import { readingFor } from "../../scorers/semeval2007/rules";
import { sha1Hex, wordnet30 } from "../../wordnet/wn30";
import { type Actor, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { resolveGold } from "./golds";
import { decodeUpload, MAX_RUN_BYTES, type NamedText } from "./uploads";

/** Runs scored in one submission, at most. */
export const MAX_RANKED_RUNS = 8;
/** A gzipped upload (SWORDS ships its JSON gzipped) may unzip to this much. */
const MAX_UNZIPPED_BYTES = 4 * MAX_RUN_BYTES;

/** An uploaded file: its bytes in hand, or a file on disk (the route's, read only when its turn comes). */
type RankedFile = { name: string; bytes: Uint8Array } | { name: string; path: string };

export interface RankedUpload {
  benchmark: string;
  /** null: the project's gold (GAP only). */
  gold: RankedFile | null;
  runs: RankedFile[];
  format?: string;
  variant?: string;
  noMwe?: boolean;
  mlsp?: boolean;
  repaired?: boolean;
}

export interface RankingOutcome {
  table: Omit<RankTable, "diagnostics">;
  text: string;
  diagnostics: Diagnostic[];
}

/**
 * Bytes as Python 3 reads them (tsar_eval.py, swords' eval.py): not UTF-8 is
 * refused naming the line and byte offset; a byte-order mark is kept.
 */
function pythonText(name: string, bytes: Uint8Array, field: string): string {
  const d = decodePythonUtf8(bytes, name);
  if (d.text === null) {
    const details = d.diagnostics.map(formatDiagnostic);
    throw new InputError(`${details[0]}`, { [field]: "Not UTF-8 text." }, details);
  }
  return d.text;
}

/** An upload decoded as text; gzip (by its magic bytes) unzipped first, within the limit. `python`: see pythonText. */
function decodeMaybeGz(name: string, bytes: Uint8Array, field: string, python = false): NamedText {
  const shown = name.trim() || field;
  if (bytes.byteLength > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    if (bytes.byteLength > MAX_RUN_BYTES) return decodeUpload(name, bytes, field);
    let raw: Buffer;
    try {
      raw = gunzipSync(bytes, { maxOutputLength: MAX_UNZIPPED_BYTES });
    } catch (e) {
      const msg = e instanceof RangeError ? `unzips to more than ${MAX_UNZIPPED_BYTES / 1048576} MB` : "not a readable gzip file";
      throw new InputError(`${name}: ${msg}; nothing was scored.`, { [field]: msg });
    }
    let text: string;
    if (python) text = pythonText(shown, raw, field);
    else {
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
      } catch {
        throw new InputError(`${name}: unzipped, not UTF-8 text; nothing was scored.`, { [field]: "Not UTF-8 text." });
      }
    }
    if (text.trim() === "") throw new InputError(`${name}: unzipped, the file is empty; nothing was scored.`, { [field]: "The file is empty." });
    return { name: shown, text };
  }
  // Within the limit, the located UTF-8 error before decodeUpload's general one.
  if (python && bytes.byteLength > 0 && bytes.byteLength <= MAX_RUN_BYTES) pythonText(shown, bytes, field);
  const t = decodeUpload(name, bytes, field);
  return python ? { name: t.name, text: pythonText(t.name, bytes, field) } : t;
}

function bytesOf(f: RankedFile): Uint8Array {
  return "bytes" in f ? f.bytes : fs.readFileSync(f.path);
}

/**
 * Score ranked runs with a benchmark's measures; rows ranked by its headline measure. The runs are
 * read, decoded and scored one at a time, each dropped before the next is read (#38 finding 8: eight
 * runs of 60 MB decoded at once ran the derivation process out of memory): what is held is the gold,
 * one run and each run's row.
 */
export function scoreRankingUpload(db: Db, actor: Actor, projectId: number, input: RankedUpload): RankingOutcome {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  if (!isBenchmark(input.benchmark)) throw new InputError(`Unknown benchmark "${input.benchmark}".`, { benchmark: "tsar, swords or gap" });
  const benchmark: Benchmark = input.benchmark;
  const format = input.format ? input.format : undefined;
  if (format !== undefined && !(RANKED_FORMATS as readonly string[]).includes(format)) throw new InputError(`Unknown format "${format}".`, { format: RANKED_FORMATS.join(", ") });
  const variant = input.variant || "melamud";
  if (!isGapVariant(variant)) throw new InputError(`Unknown GAP variant "${input.variant}".`, { variant: "melamud, lexsubgen or swords" });
  if (input.runs.length === 0) throw new InputError("Choose at least one ranked output.", { runs: "Choose a file." });
  if (input.runs.length > MAX_RANKED_RUNS) throw new InputError(`At most ${MAX_RANKED_RUNS} ranked outputs at once.`, { runs: `At most ${MAX_RANKED_RUNS} files.` });
  let gold: NamedText;
  // tsar_eval.py and eval.py read their files as Python 3 text.
  const python = benchmark === "tsar" || benchmark === "swords";
  if (input.gold) gold = decodeMaybeGz(input.gold.name, bytesOf(input.gold), "gold", python);
  else if (benchmark === "gap") gold = resolveGold(db, actor, project, { kind: "project" }).gold!;
  else throw new InputError(`${benchmark === "tsar" ? "TSAR/MLSP" : "SWORDS"} measures need the benchmark's gold file.`, { gold: "Choose the gold file." });
  const runs = (function* () {
    for (const r of input.runs) yield decodeMaybeGz(r.name, bytesOf(r), "runs", python);
  })();
  const table = rankRuns(benchmark, gold, runs, benchmark === "swords" ? wordnet30() : null, {
    format: format as RankedFormat | undefined,
    variant,
    noMwe: !!input.noMwe,
    keepComplexWord: !!input.mlsp,
    repaired: !!input.repaired,
    // The project's reading (bytes for English, UTF-8 otherwise): a German oot run's `Plünderung.n` is read whole.
    utf8: readingFor(project.language) === "utf8",
    sha1: sha1Hex,
  });
  const { diagnostics, ...rest } = table;
  if (hasErrors(diagnostics) && table.rows.every((r) => r.values.every((v) => v === null))) {
    const details = diagnostics.filter((d) => d.severity === "error").slice(0, 20).map(formatDiagnostic);
    throw new InputError(`Nothing could be scored: ${details[0] ?? "the files were refused"}`, {}, details);
  }
  return { table: rest, text: formatRankTable(table), diagnostics: diagnostics.slice(0, 200) };
}

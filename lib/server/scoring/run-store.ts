/**
 * Storing a system run a slice at a time (#39, #38 finding 5): the file is read line by line as it
 * is decoded (never one string), and written in slices of a few thousand lines, each in a short
 * write transaction of its own — its text (run_texts), the ids it answers with each id's first line
 * (run_items), and each new id's outcome, scored against its gold line as it stands in that
 * transaction (run_outcomes; lib/server/derived/run-items.ts) — with a pause between slices so
 * that annotators' saves get the write lock first. The run is "storing", in no list, until its last
 * slice is written; a run whose storing was cut off is deleted at the next start.
 *
 * Reading the file to check it (its type, its lines, whether its errors were confirmed) is a pass
 * of its own before anything is written (`readRunLines`), so a refused file writes nothing.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { projects, runItems, runOutcomes, runTexts, scoringGolds, systemRuns } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Diagnostic, formatDiagnostic, splitLines } from "../../lexsub/diagnostics";
import { type FirstLine, keyOfLines, scoreItems } from "../../scorers/semeval2007/items";
import type { ScoringKey } from "../../scorers/semeval2007/key";
import type { MwKey } from "../../scorers/semeval2007/mw";
import { type Reading, readingFor } from "../../scorers/semeval2007/rules";
import { SystemReader, sniffSystemKind } from "../../scorers/semeval2007/system";
import { InputError } from "../kernel/errors";
import { get, run } from "../kernel/statements";
import { BLOCK, OutcomeBlocks, projectGoldLines } from "../derived/actor-free";
import type { RunType } from "./uploads";

const SR = named(systemRuns);
const RI = named(runItems);
const RT = named(runTexts);
const RO = named(runOutcomes);
const SG = named(scoringGolds);
const P = named(projects);

/** Lines per slice: one short write transaction. */
export const SLICE_LINES = 4000;
/** A run's text is kept in pieces of about this many characters. */
const TEXT_PIECE = 256 * 1024;

/** Decoded text in pieces, in hand or as an upload is read. */
export type Pieces = Iterable<string> | AsyncIterable<string>;

/** The lines of pieces of text, split on "\n" as splitLines splits a whole text (a final newline starts no line; a CRLF line keeps its "\r"). */
async function* linesOf(pieces: Pieces): AsyncGenerator<string> {
  let rest = "";
  for await (const piece of pieces) {
    const parts = (rest + piece).split("\n");
    rest = parts.pop()!;
    yield* parts;
  }
  if (rest !== "") yield rest;
}

/** What reading a run's file found: its type and how that was settled, the reader's diagnostics and counts. */
export interface RunLines {
  type: RunType;
  typeFrom: "chosen" | "extension" | "content";
  typeReason: string | null;
  diagnostics: Diagnostic[];
  lines: { read: number; matched: number; refused: number };
}

/** Lines of a file looked at to tell its type from its content (sniffSystemKind's own bound). */
const SNIFF_LINES = 2000;

/**
 * Read a system file as the scorer will, a line at a time: its type (chosen, from the name, else
 * from its first lines) and every line through the system reader. Refused when the type cannot be
 * settled or no line is in its format. Writes nothing.
 */
export async function readRunLines(fileName: string, pieces: Pieces, chosen: RunType | "", fromName: RunType | null): Promise<RunLines> {
  const lines = linesOf(pieces);
  let type: RunType;
  let typeFrom: RunLines["typeFrom"];
  let typeReason: string | null = null;
  const head: string[] = [];
  if (chosen !== "") {
    type = chosen;
    typeFrom = "chosen";
  } else if (fromName) {
    type = fromName;
    typeFrom = "extension";
  } else {
    let seen = 0;
    for (;;) {
      const next = await lines.next();
      if (next.done) break;
      head.push(next.value);
      if (/\S/.test(next.value) && ++seen >= SNIFF_LINES) break;
    }
    const guess = sniffSystemKind(head.join("\n"));
    if (!guess.kind) {
      throw new InputError(`${fileName}: neither the name (.best, .oot or .mw) nor the content tells the type: ${guess.reason}; choose the type.`, { type: "Choose best, oot or mw." });
    }
    type = guess.kind;
    typeFrom = "content";
    typeReason = guess.reason;
  }
  const reader = new SystemReader(fileName, type);
  for (const l of head) reader.push(l);
  for await (const l of lines) reader.push(l);
  const diagnostics = reader.finish();
  const counts = { read: reader.lines, matched: reader.matched, refused: reader.refused };
  if (reader.matched === 0) {
    const example = type === "best" ? "lexelt id :: guess;guess" : type === "oot" ? "lexelt id ::: guess;guess;…" : "lexelt id :: multiword";
    throw new InputError(
      reader.refused > 0 ? `${fileName}: no line is in the ${type} format (${example}); nothing was saved.` : `${fileName}: no answers in the file; nothing was saved.`,
      { file: `No line in the ${type} format.` },
      diagnostics.map(formatDiagnostic),
    );
  }
  return { type, typeFrom, typeReason, diagnostics, lines: counts };
}

/** The run's row before its slices: what it is and where it goes. */
export interface NewRun {
  projectId: number;
  name: string;
  type: RunType;
  fileName: string;
  goldId: number | null;
  createdBy: number | null;
}

/**
 * Writes one run, slice by slice (`slice`), each slice in a transaction of its own; `begin` makes
 * its row ("storing"), `finish` makes it "stored". The outcome of each new id is scored in its
 * slice's transaction, against its gold line then (the project's gold), or the stored gold's key.
 */
class RunWriter {
  runId = 0;
  private items = 0;
  private bytes = 0;
  private textSeq = 0;
  private text: string[] = [];
  private textLength = 0;
  private readonly reader: SystemReader;
  private readonly reading: Reading;
  private storedKey: ScoringKey | MwKey | null = null;
  private blocks: OutcomeBlocks | null = null;

  constructor(
    private readonly db: Db,
    private readonly row: NewRun,
    /** An existing run (stored before #39) whose items are written now: its row and text stay. */
    private readonly existing: number | null = null,
  ) {
    const language = get<{ language: string }>(db, `select ${P.language} as language from ${P.$} where ${P.id} = ?`, row.projectId)?.language ?? "en";
    this.reading = readingFor(language);
    this.reader = new SystemReader(row.fileName, row.type, { reading: this.reading });
  }

  begin(): number {
    if (this.row.goldId !== null) {
      // A stored gold never changes: its key, read once, scores every id of the run.
      const g = get<{ gold: string | null; mwgold: string | null }>(this.db, `select ${SG.goldText} as gold, ${SG.mwgoldText} as mwgold from ${SG.$} where ${SG.id} = ?`, this.row.goldId)!;
      const text = this.row.type === "mw" ? g.mwgold : g.gold;
      this.storedKey = keyOfLines(this.row.type, text === null ? [] : splitLines(text).map((l) => (l.crlf ? l.text + "\r" : l.text)), this.reading);
    }
    if (this.existing !== null) {
      this.runId = this.existing;
      this.blocks = new OutcomeBlocks(this.db, this.runId, []);
      return this.runId;
    }
    this.runId = this.db.$client
      .transaction(() =>
        get<{ id: number }>(
          this.db,
          `insert into ${SR.$} (${SR.projectId}, ${SR.name}, ${SR.type}, ${SR.fileName}, ${SR.content}, ${SR.goldId}, ${SR.createdBy}, ${SR.state}, ${SR.reading})
           values (?, ?, ?, ?, '', ?, ?, 'storing', ?) returning ${SR.id} as id`,
          this.row.projectId,
          this.row.name,
          this.row.type,
          this.row.fileName,
          this.row.goldId,
          this.row.createdBy,
          this.reading,
        )!,
      )
      .immediate().id;
    this.blocks = new OutcomeBlocks(this.db, this.runId, []);
    return this.runId;
  }

  /** One slice of lines (and the text they came from), in one write transaction. */
  slice(lines: readonly string[], pieces: readonly string[]): void {
    this.db.$client
      .transaction(() => {
        const fresh: (FirstLine & { seq: number; id: string })[] = [];
        const freshLines = new Map<string, number>();
        const insert = `insert into ${RI.$} (${RI.runId}, ${RI.itemId}, ${RI.seq}, ${RI.line}, ${RI.lines}, ${RI.text}) values (?, ?, ?, ?, 1, ?) on conflict do nothing`;
        const again = `update ${RI.$} set ${RI.lines} = ${RI.lines} + 1 where ${RI.runId} = ? and ${RI.itemId} = ? returning ${RI.seq} as seq`;
        for (const raw of lines) {
          const s = this.reader.push(raw);
          if (!s) continue;
          const known = freshLines.get(s.id);
          if (known !== undefined) freshLines.set(s.id, known + 1);
          else if (run(this.db, insert, this.runId, s.id, this.items, s.line, raw) === 1) {
            fresh.push({ seq: this.items++, id: s.id, text: raw, line: s.line });
            freshLines.set(s.id, 1);
          } else this.blocks!.addLine(get<{ seq: number }>(this.db, again, this.runId, s.id)!.seq);
        }
        if (fresh.length > 0) {
          const key = this.storedKey ?? this.projectKey(fresh.map((f) => f.id));
          const outcomes = scoreItems(this.row.type, key, fresh, this.reading);
          fresh.forEach((f, k) => this.blocks!.set(f.seq, outcomes[k], freshLines.get(f.id)!));
          // The same ids' later lines in this slice, counted above, are in `freshLines`.
        }
        const current = Math.floor(Math.max(0, this.items - 1) / BLOCK);
        this.blocks!.flush((b) => b === current);
        for (const p of pieces) this.addText(p);
        this.flushText(false);
      })
      .immediate();
  }

  /** The gold lines of these ids as the project's gold holds them now. */
  private projectKey(ids: readonly string[]): ScoringKey | MwKey {
    const lines = projectGoldLines(this.db, this.row.projectId, ids);
    const out: string[] = [];
    for (const id of ids) {
      const l = lines.get(id);
      const line = this.row.type === "mw" ? l?.mwLine : l?.line;
      if (line) out.push(line);
    }
    return keyOfLines(this.row.type, out, this.reading);
  }

  private addText(piece: string): void {
    this.text.push(piece);
    this.textLength += piece.length;
    this.bytes += Buffer.byteLength(piece);
  }

  private flushText(all: boolean): void {
    if (this.textLength === 0 || (!all && this.textLength < TEXT_PIECE)) return;
    run(this.db, `insert into ${RT.$} (${RT.runId}, ${RT.seq}, ${RT.text}) values (?, ?, ?)`, this.runId, this.textSeq++, this.text.join(""));
    this.text = [];
    this.textLength = 0;
  }

  /** The last of the text, and the run made "stored" with its counts and the reader's findings. */
  finish(): void {
    this.db.$client
      .transaction(() => {
        this.flushText(true);
        const diagnostics = this.reader.finish();
        const reader = { read: this.reader.lines, matched: this.reader.matched, refused: this.reader.refused, diagnostics };
        if (this.existing !== null) {
          run(this.db, `update ${SR.$} set ${SR.items} = ?, ${SR.reader} = ?, ${SR.reading} = ? where ${SR.id} = ?`, this.items, JSON.stringify(reader), this.reading, this.runId);
          return;
        }
        run(
          this.db,
          `update ${SR.$} set ${SR.state} = 'stored', ${SR.items} = ?, ${SR.bytes} = ?, ${SR.reader} = ? where ${SR.id} = ?`,
          this.items,
          this.bytes,
          JSON.stringify(reader),
          this.runId,
        );
      })
      .immediate();
  }

  /** A refused or failed store: everything of the run taken away (an existing run's items only). */
  discard(): void {
    if (this.runId === 0) return;
    if (this.existing !== null) {
      this.db.$client.transaction(() => clearItems(this.db, this.runId)).immediate();
      return;
    }
    this.db.$client.transaction(() => run(this.db, `delete from ${SR.$} where ${SR.id} = ?`, this.runId)).immediate();
  }
}

/** Take away a run's items and outcomes (not its row or text). */
function clearItems(db: Db, runId: number): void {
  run(db, `delete from ${RI.$} where ${RI.runId} = ?`, runId);
  run(db, `delete from ${RO.$} where ${RO.runId} = ?`, runId);
}

/** Runs stored before #39, whose items and outcomes are not written yet (the applier writes them). */
export function runsWithoutItems(db: Db, projectId?: number): number[] {
  return db.$client
    .prepare(`select ${SR.id} from ${SR.$} where ${SR.reading} is null and ${SR.state} = 'stored'${projectId === undefined ? "" : ` and ${SR.projectId} = ?`}`)
    .pluck()
    .all(...(projectId === undefined ? [] : [projectId])) as number[];
}

/** Write the items and outcomes of a run stored before #39 (its text kept whole in system_runs.content), a slice at a time. */
export function writeItemsOfStoredRun(database: Db, runId: number): void {
  const r = get<{ projectId: number; name: string; type: RunType; fileName: string; goldId: number | null; createdBy: number | null; content: string }>(
    database,
    `select ${SR.projectId} as projectId, ${SR.name} as name, ${SR.type} as type, ${SR.fileName} as fileName, ${SR.goldId} as goldId, ${SR.createdBy} as createdBy, ${SR.content} as content from ${SR.$} where ${SR.id} = ? and ${SR.reading} is null`,
    runId,
  );
  if (!r) return;
  database.$client.transaction(() => clearItems(database, runId)).immediate();
  const w = new RunWriter(database, r, runId);
  try {
    w.begin();
    const lines = r.content.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (let i = 0; i < lines.length; i += SLICE_LINES) w.slice(lines.slice(i, i + SLICE_LINES), []);
    w.finish();
  } catch (e) {
    w.discard();
    throw e;
  }
}

/** writeRunSlices for a text in hand (the command line, the WordNet baselines, tests): the same slices, one after another. */
export function writeRunSlicesSync(database: Db, row: NewRun, text: string): number {
  const w = new RunWriter(database, row);
  try {
    w.begin();
    const lines = text.split("\n");
    // A final newline starts no line.
    if (lines[lines.length - 1] === "") lines.pop();
    for (let i = 0; i < lines.length; i += SLICE_LINES) w.slice(lines.slice(i, i + SLICE_LINES), []);
    w.slice([], [text]);
    w.finish();
    return w.runId;
  } catch (e) {
    w.discard();
    throw e;
  }
}

/**
 * Write a run read already (readRunLines), a slice at a time, calling `between` after each slice
 * (the jobs worker records progress and pauses there, so saves get the write lock). Returns the
 * run's id. A failure deletes what was written.
 */
export async function writeRunSlices(database: Db, row: NewRun, pieces: Pieces, between: (done: number) => Promise<void> | void = () => {}): Promise<number> {
  const w = new RunWriter(database, row);
  try {
    w.begin();
    let lines: string[] = [];
    let texts: string[] = [];
    let rest = "";
    let done = 0;
    for await (const piece of pieces) {
      texts.push(piece);
      const parts = (rest + piece).split("\n");
      rest = parts.pop()!;
      for (const l of parts) lines.push(l);
      if (lines.length >= SLICE_LINES) {
        w.slice(lines, texts);
        done += lines.length;
        lines = [];
        texts = [];
        await between(done);
      }
    }
    if (rest !== "") lines.push(rest);
    w.slice(lines, texts);
    w.finish();
    return w.runId;
  } catch (e) {
    w.discard();
    throw e;
  }
}

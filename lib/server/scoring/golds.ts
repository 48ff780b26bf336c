/**
 * The golds the Scoring page ranks runs against: the project's own (derived from the annotators'
 * responses, lib/server/gold/gold.ts) or a gold / mwgold pair uploaded and stored with the project
 * (scoring_golds). Every function that takes an actor checks that it is the project's coordinator.
 */
import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { scoringGolds, systemRuns, users } from "../../../db/schema";
import { scoreTexts } from "../../scorers/semeval2007/texts";
import { type Diagnostic, diag, formatDiagnostic, hasErrors, splitLines } from "../../lexsub/diagnostics";
import { type GoldKind, GoldReader } from "../../lexsub/formats/gold";
import { type Actor, type ProjectRow, actorUserId, requireProject } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { projectGold } from "../gold";
import { goldFileText, queuedCount } from "../derived/actor-free";
import { MAX_RUN_NAME, type NamedText } from "./uploads";

// ---------------------------------------------------------------------------
// Gold

/** Which gold to score against: the project's own (derived now), or a gold stored with the project. */
export type GoldSource = { kind: "project" } | { kind: "stored"; id: number };

export interface ResolvedGold {
  kind: "project" | "stored";
  /** The stored gold's id; null for the project's own. */
  id: number | null;
  /** For headings: "the gold derived from …" or the stored gold's name and files. */
  label: string;
  /** For best and oot; null when not uploaded. */
  gold: NamedText | null;
  /** For mw; null when not uploaded. */
  mwgold: NamedText | null;
}

/** A gold the Scoring page can rank runs against, with how many runs are scored with it. */
export interface GoldInfo {
  /** null for the project's own gold. */
  id: number | null;
  name: string;
  label: string;
  goldName: string | null;
  mwgoldName: string | null;
  runs: number;
  createdBy: string | null;
  createdAt: Date | null;
}

/** The id a form's gold value names (a stored gold of this project), or null for the project's own gold. */
export function goldIdOf(db: Db, projectId: number, value: string | number | null | undefined): number | null {
  const v = String(value ?? "").trim();
  if (v === "" || v === "project") return null;
  const id = Number(v);
  const row =
    Number.isSafeInteger(id) && id > 0
      ? db.select({ id: scoringGolds.id }).from(scoringGolds).where(and(eq(scoringGolds.projectId, projectId), eq(scoringGolds.id, id))).get()
      : undefined;
  if (!row) throw new NotFoundError(`No stored gold ${JSON.stringify(v.slice(0, 40))} in this project.`);
  return row.id;
}

function projectGoldLabel(project: ProjectRow): string {
  return `the gold derived from ${project.name}'s responses`;
}

export function storedLabel(g: { name: string; goldName: string | null; mwgoldName: string | null }): string {
  const files = [g.goldName, g.mwgoldName].filter(Boolean).join(" and ");
  return files && files !== g.name ? `${g.name} (${files})` : g.name;
}

export function resolveGold(db: Db, actor: Actor, project: ProjectRow, source: GoldSource): ResolvedGold {
  // Shared by the scoring files, so it checks its caller itself rather than trusting each one did.
  requireProject(db, actor, project.id, { coordinator: true });
  if (source.kind === "project") {
    // With nothing queued, the lines kept as answers change (#39) are the derivation's lines: read
    // them, rather than derive the whole gold from every response again (a quarter of a GB held at
    // 100,000 instances). Else (an import or a lemma decision still being applied) derived now.
    // One read transaction: the queue, the gold and the mwgold of one moment.
    const files = db.$client.transaction((): { gold: string; mwgold: string } =>
      queuedCount(db, project.id) === 0 ? { gold: goldFileText(db, project.id, "gold"), mwgold: goldFileText(db, project.id, "mwgold") } : projectGold(db, actor, project.id),
    )();
    return {
      kind: "project",
      id: null,
      label: projectGoldLabel(project),
      gold: { name: `${project.name}.gold`, text: files.gold },
      mwgold: { name: `${project.name}.mwgold`, text: files.mwgold },
    };
  }
  const row = db
    .select()
    .from(scoringGolds)
    .where(and(eq(scoringGolds.projectId, project.id), eq(scoringGolds.id, source.id)))
    .get();
  if (!row) throw new NotFoundError("No such stored gold in this project.");
  return {
    kind: "stored",
    id: row.id,
    label: storedLabel(row),
    gold: row.goldText !== null ? { name: row.goldName ?? `${row.name}.gold`, text: row.goldText } : null,
    mwgold: row.mwgoldText !== null ? { name: row.mwgoldName ?? `${row.name}.mwgold`, text: row.mwgoldText } : null,
  };
}

/** The source a run is scored with. */
export function sourceOfRun(goldId: number | null): GoldSource {
  return goldId === null ? { kind: "project" } : { kind: "stored", id: goldId };
}

/** The project's own gold and every stored gold, each with the number of runs scored with it. */
export function listGolds(db: Db, actor: Actor, projectId: number): GoldInfo[] {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const counts = new Map<number | null, number>();
  for (const r of db
    .select({ goldId: systemRuns.goldId, n: sql<number>`count(*)` })
    .from(systemRuns)
    .where(eq(systemRuns.projectId, projectId))
    .groupBy(systemRuns.goldId)
    .all()) {
    counts.set(r.goldId, r.n);
  }
  const stored = db
    .select({ id: scoringGolds.id, name: scoringGolds.name, goldName: scoringGolds.goldName, mwgoldName: scoringGolds.mwgoldName, createdBy: users.name, createdAt: scoringGolds.createdAt })
    .from(scoringGolds)
    .leftJoin(users, eq(users.id, scoringGolds.createdBy))
    .where(eq(scoringGolds.projectId, projectId))
    .orderBy(asc(scoringGolds.id))
    .all();
  return [
    { id: null, name: `${project.name} (derived)`, label: projectGoldLabel(project), goldName: null, mwgoldName: null, runs: counts.get(null) ?? 0, createdBy: null, createdAt: null },
    ...stored.map((g) => ({ ...g, label: storedLabel(g), runs: counts.get(g.id) ?? 0 })),
  ];
}

export interface StoreGoldInput {
  /** The gold's name on the page; empty for the gold file's name without its extension. */
  name?: string;
  gold: NamedText | null;
  mwgold: NamedText | null;
}

/** Malformed lines named in a refusal, at most (then how many more). */
const MALFORMED_LISTED = 20;

/**
 * The lines of a gold or mwgold that are not in its form, as errors: a line in no
 * `lexelt id :: …` format (score.pl skips it silently), and an entry without a count
 * (`… :: clever 3;sma`, the end of a cut-off file). An entry that has a count but
 * that score.pl reads oddly (`x 1`, `, 5`, `11.27 kilograms 1`) is real data, not a
 * malformed line: it keeps its warning.
 */
function malformedGoldLines(file: NamedText, kind: GoldKind): Diagnostic[] {
  const reader = new GoldReader(file.name, kind);
  const out: Diagnostic[] = [];
  let more = 0;
  const add = (line: number, message: string) => {
    if (out.length < MALFORMED_LISTED) out.push(diag("error", file.name, line, message));
    else more++;
  };
  for (const l of splitLines(file.text)) {
    const skipped = reader.skipped;
    const g = reader.push(l.crlf ? `${l.text}\r` : l.text);
    if (!g) {
      if (reader.skipped > skipped) add(l.line, `not a ${kind} line (expected "lexelt id :: substitute count;..."): ${clip(l.text)}`);
      continue;
    }
    const bad = (g.fields?.text ?? []).find((f): f is string => f !== null && f.trim() !== "" && !HAS_COUNT.test(f));
    if (bad !== undefined) add(l.line, `entry ${JSON.stringify(clip(bad.trim()))} has no count (expected "substitute count"): is the line cut off?`);
  }
  if (more > 0) out.push(diag("error", file.name, 0, `and ${more} more malformed line${more === 1 ? "" : "s"}`));
  return out;
}

/** An entry ends with a count after a space: `clever 3`, `x 1`, `, 5`. */
const HAS_COUNT = /\S[ \t]+\d+\s*$/;

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/**
 * Read an uploaded gold and/or mwgold as the scorer will; refused, naming the
 * lines, when either has a malformed line (`malformedGoldLines`) or errors, or
 * neither is given (the part of `storeGold` that grows with the files).
 */
function checkGoldUpload(input: Pick<StoreGoldInput, "gold" | "mwgold">): void {
  if (!input.gold && !input.mwgold) throw new InputError("Upload a gold file, an mwgold file or both.", { gold: "Choose a gold or mwgold file." });
  for (const [file, type, field] of [
    [input.gold, "best", "gold"],
    [input.mwgold, "mw", "mwgold"],
  ] as const) {
    if (!file) continue;
    const malformed = malformedGoldLines(file, field);
    if (malformed.length > 0) {
      const first = malformed[0];
      const count = malformed.length === 1 ? "a malformed line" : "malformed lines";
      throw new InputError(
        `${file.name}: the ${field} file has ${count}, the first at line ${first.line}: ${first.message}. Nothing was stored.`,
        { [field]: `Malformed line ${first.line}.` },
        malformed.map(formatDiagnostic),
      );
    }
    const diagnostics = scoreTexts({ type, system: "", gold: file.text, goldName: file.name }).goldDiagnostics;
    if (hasErrors(diagnostics)) {
      throw new InputError(`${file.name}: the ${field} file has errors; nothing was stored.`, { [field]: "This file has errors." }, diagnostics.map(formatDiagnostic));
    }
  }
}

/**
 * Store an uploaded gold and/or mwgold with the project. Refused, with nothing
 * written, when neither file is given, a file has errors or no readable line,
 * or the name is too long or taken.
 */
export function storeGold(db: Db, actor: Actor, projectId: number, input: StoreGoldInput): GoldInfo {
  requireProject(db, actor, projectId, { coordinator: true });
  const id = storeGoldUpload(db, projectId, actorUserId(actor!), input);
  return listGolds(db, actor, projectId).find((g) => g.id === id)!;
}

/** `storeGold` once the caller is checked (the "scoring-gold" job, as `storeRunUpload`): the stored gold's id. */
export function storeGoldUpload(db: Db, projectId: number, createdBy: number | null, input: StoreGoldInput): number {
  checkGoldUpload(input);
  const fallback = (input.gold ?? input.mwgold)!.name.replace(/\.(gold|mwgold)(\.txt)?$/i, "");
  const name = ((input.name ?? "").trim() || fallback || "gold").replace(/\s+/g, " ");
  if (name.length > MAX_RUN_NAME) throw new InputError(`The name is longer than ${MAX_RUN_NAME} characters.`, { goldName: `At most ${MAX_RUN_NAME} characters.` });
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new InputError("The name holds control characters.", { goldName: "No control characters." });
  return db.transaction((tx) => {
    const taken = tx
      .select({ id: scoringGolds.id })
      .from(scoringGolds)
      .where(and(eq(scoringGolds.projectId, projectId), eq(scoringGolds.name, name)))
      .get();
    if (taken) throw new InputError(`A gold named "${name}" is already stored; give this one another name or delete that one.`, { goldName: "Name taken." });
    return tx
      .insert(scoringGolds)
      .values({
        projectId,
        name,
        goldName: input.gold?.name ?? null,
        goldText: input.gold?.text ?? null,
        mwgoldName: input.mwgold?.name ?? null,
        mwgoldText: input.mwgold?.text ?? null,
        createdBy,
      })
      .returning({ id: scoringGolds.id })
      .get().id;
  });
}

/** Delete a stored gold; refused while runs are scored with it (they are named). Returns its name. */
export function deleteGold(db: Db, actor: Actor, projectId: number, goldId: number): string {
  requireProject(db, actor, projectId, { coordinator: true });
  const id = goldIdOf(db, projectId, goldId)!;
  return db.transaction((tx) => {
    const runs = tx.select({ name: systemRuns.name, type: systemRuns.type }).from(systemRuns).where(eq(systemRuns.goldId, id)).all();
    const g = tx.select({ name: scoringGolds.name }).from(scoringGolds).where(eq(scoringGolds.id, id)).get()!;
    if (runs.length > 0) {
      const names = runs.slice(0, 5).map((r) => `${r.name} (${r.type})`).join(", ");
      throw new InputError(`${runs.length} run${runs.length === 1 ? " is" : "s are"} scored with ${g.name}: ${names}${runs.length > 5 ? ", …" : ""}. Delete ${runs.length === 1 ? "it" : "them"} first.`);
    }
    tx.delete(scoringGolds).where(eq(scoringGolds.id, id)).run();
    return g.name;
  });
}

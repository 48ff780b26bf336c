/**
 * Bulk import and export of annotators' responses as TSV (lib/lexsub/formats/responses.ts),
 * for moving existing annotation in and out. Coordinators only. An import is all
 * or nothing: every line is checked against the project (the annotator exists and
 * is an annotator member, the instance is in the project under that lexelt) and
 * against the rules the workspace applies at save (the reader checks each field;
 * here the rules that need the instance's target: no substitute is the target
 * word, a multiword holds it) before one transaction writes anything; each change
 * appends a history row (source "import").
 */
import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { instances, lexelts, memberships, responseHistory, responses, users } from "../../db/schema";
import { countNewResponse } from "./queue";
import { parseResponsesTsv, ruleError, writeResponsesTsv } from "../lexsub/formats/responses";
import { type Target, phraseBreak, targetBreak } from "../lexsub/substitute-rules";
import type { AnnotatorResponse } from "../lexsub/types";
import { type Diagnostic, diag, formatDiagnostic, hasErrors } from "../scoring/diagnostics";
import { type Actor, requireProject } from "./actor";
import { InputError } from "./errors";

/** Refuse response files larger than this before parsing (a million lines is ~40 MB). */
export const MAX_RESPONSES_BYTES = 50 * 1024 * 1024;
/** How many problems an import refusal lists. */
const MAX_LISTED = 50;

export interface ResponseImportReport {
  fileName: string;
  /** Responses in the file. */
  lines: number;
  added: number;
  updated: number;
  unchanged: number;
  warnings: Diagnostic[];
  /** One sentence saying what happened, for the CLI and the page. */
  message: string;
}

function refuse(problems: Diagnostic[], fileName: string): never {
  const errors = problems.filter((d) => d.severity === "error");
  const details = errors.slice(0, MAX_LISTED).map(formatDiagnostic);
  if (errors.length > MAX_LISTED) details.push(`${fileName}: ${errors.length - MAX_LISTED} more problems not listed (${errors.length} in all)`);
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  throw new InputError(`${details[0]}${more}; nothing was imported.`, { file: "The file was refused." }, details);
}

/**
 * Import a responses TSV into a project. Lines equal to the stored response are
 * counted as unchanged and write nothing, so importing the same file twice is harmless.
 */
export function importResponses(db: Db, actor: Actor, projectId: number, input: { fileName: string; text: string }): ResponseImportReport {
  requireProject(db, actor, projectId, { coordinator: true });
  const { fileName, text } = input;
  if (text.length > MAX_RESPONSES_BYTES) {
    throw new InputError(`${fileName}: the file is over the import limit of ${MAX_RESPONSES_BYTES / 1048576} MB; nothing was imported.`);
  }
  const parsed = parseResponsesTsv(text, fileName, { maxErrors: MAX_LISTED });
  // Lines the reader refused are listed together with those the project refuses (below), in line order.
  const unread = hasErrors(parsed.diagnostics);
  const rows = parsed.responses;
  if (rows.length === 0 && !unread) throw new InputError(`${fileName}: no responses in the file; nothing was imported.`, { file: "The file is empty." });

  // Everyone named in the file, and whether they belong to this project.
  const names = [...new Set(rows.map((r) => r.annotator))];
  const people = new Map<string, { id: number; role: string; member: boolean }>();
  for (let k = 0; k < names.length; k += 500) {
    const chunk = names.slice(k, k + 500);
    for (const u of db.select({ id: users.id, name: users.name, role: users.role }).from(users).where(inArray(users.name, chunk)).all()) {
      people.set(u.name, { id: u.id, role: u.role, member: false });
    }
  }
  const memberIds = new Set(
    db.select({ userId: memberships.userId }).from(memberships).where(eq(memberships.projectId, projectId)).all().map((m) => m.userId),
  );
  for (const p of people.values()) p.member = memberIds.has(p.id);

  const inProject = new Map(
    db
      .select({ ref: instances.id, instanceId: instances.instanceId, item: lexelts.item, lemma: lexelts.lemma, head: instances.head })
      .from(instances)
      .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
      // Only published instances: an import still being written keeps its lexelts in a holding project.
      .where(and(eq(instances.projectId, projectId), eq(lexelts.projectId, projectId)))
      .all()
      .map((i) => [i.instanceId, i]),
  );

  const problems: Diagnostic[] = [];
  const planned: Array<{ ref: number; userId: number; r: AnnotatorResponse }> = [];
  for (const r of rows) {
    const who = people.get(r.annotator);
    const inst = inProject.get(r.instanceId);
    let problem: string | null = null;
    if (!who) problem = `no user named "${r.annotator}" (create the account first)`;
    else if (who.role !== "annotator") problem = `"${r.annotator}" is a ${who.role}, not an annotator`;
    else if (!who.member) problem = `"${r.annotator}" is not a member of this project (add them on the Team page)`;
    else if (!inst) problem = `instance "${r.instanceId}" is not in this project`;
    else if (inst.item !== r.lexelt) problem = `instance "${r.instanceId}" belongs to lexelt ${inst.item}, not ${r.lexelt}`;
    else problem = targetProblem(r, inst);
    if (problem) problems.push(diag("error", fileName, r.line, problem));
    else planned.push({ ref: inst!.ref, userId: who!.id, r });
  }
  if (unread || problems.length > 0) refuse(inLineOrder([...parsed.diagnostics, ...problems]), fileName);

  const now = new Date();
  const lexeltOfInstance = (ref: number) => db.select({ id: instances.lexeltId }).from(instances).where(eq(instances.id, ref)).get()!.id;
  return db.transaction((tx) => {
    let added = 0;
    let updated = 0;
    let unchanged = 0;
    for (const { ref, userId, r } of planned) {
      const substitutes = JSON.stringify(r.substitutes);
      const current = tx
        .select({ id: responses.id, kind: responses.kind, substitutes: responses.substitutes, multiword: responses.multiword, revision: responses.revision })
        .from(responses)
        .where(and(eq(responses.instanceRef, ref), eq(responses.userId, userId)))
        .get();
      let responseId: number;
      let revision: number;
      if (!current) {
        const row = tx
          .insert(responses)
          .values({ projectId, instanceRef: ref, userId, kind: r.kind, substitutes, multiword: r.multiword, revision: 1, updatedAt: now })
          .returning({ id: responses.id })
          .get();
        responseId = row.id;
        revision = 1;
        added++;
        countNewResponse(db, projectId, userId, lexeltOfInstance(ref));
      } else if (current.kind === r.kind && current.substitutes === substitutes && (current.multiword ?? null) === r.multiword) {
        unchanged++;
        continue;
      } else {
        revision = current.revision + 1;
        tx.update(responses)
          .set({ kind: r.kind, substitutes, multiword: r.multiword, revision, updatedAt: now })
          .where(eq(responses.id, current.id))
          .run();
        responseId = current.id;
        updated++;
      }
      tx.insert(responseHistory)
        .values({ responseId, projectId, instanceRef: ref, userId, kind: r.kind, substitutes, multiword: r.multiword, revision, source: "import", savedAt: now })
        .run();
    }
    const n = planned.length;
    const what = n === 1 ? "1 response" : `${n} responses`;
    const message =
      added + updated === 0
        ? `${fileName}: ${what}, ${n === 1 ? "already" : "all already"} stored as given; nothing changed.`
        : `${fileName}: ${what}; added ${added}, updated ${updated}, unchanged ${unchanged}.`;
    return { fileName, lines: n, added, updated, unchanged, warnings: parsed.diagnostics, message };
  });
}

/** Diagnostics by line; those about the whole file (line 0, e.g. "N more errors not listed") last. */
function inLineOrder(ds: Diagnostic[]): Diagnostic[] {
  return ds.map((d, k) => ({ d, k })).sort((a, b) => (a.d.line || Infinity) - (b.d.line || Infinity) || a.k - b.k).map(({ d }) => d);
}

/** The first rule of the workspace that needs the instance's target and that the line breaks, as its error; else null. */
function targetProblem(r: AnnotatorResponse, target: Target): string | null {
  for (let k = 0; k < r.substitutes.length; k++) {
    const broken = targetBreak(r.substitutes[k], target);
    if (broken) return ruleError(`answer, substitute ${k + 1}`, r.substitutes[k], broken);
  }
  const broken = r.multiword === null ? null : phraseBreak(r.multiword, target);
  return broken ? ruleError("multiword", r.multiword!, broken) : null;
}

/** Every current response in the project as AnnotatorResponse records, in corpus order, then by annotator. */
export function listProjectResponses(db: Db, actor: Actor, projectId: number): AnnotatorResponse[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return projectResponseRecords(db, projectId);
}

/**
 * The query behind listProjectResponses, for data-access functions that have
 * already checked the actor (gold derivation reads it inside its own transaction).
 */
export function projectResponseRecords(db: Db, projectId: number): AnnotatorResponse[] {
  return db
    .select({
      annotator: users.name,
      lexelt: lexelts.item,
      instanceId: instances.instanceId,
      kind: responses.kind,
      substitutes: responses.substitutes,
      multiword: responses.multiword,
    })
    .from(responses)
    .innerJoin(instances, eq(instances.id, responses.instanceRef))
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .innerJoin(users, eq(users.id, responses.userId))
    .where(eq(responses.projectId, projectId))
    .orderBy(asc(lexelts.position), asc(instances.position), asc(users.name))
    .all()
    .map((r) => ({ ...r, substitutes: JSON.parse(r.substitutes) as string[], multiword: r.multiword || null }));
}

/** The project's responses as TSV text (coordinators only). */
export function exportResponses(db: Db, actor: Actor, projectId: number): string {
  return writeResponsesTsv(listProjectResponses(db, actor, projectId));
}

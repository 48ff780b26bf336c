/** Loading lexelt XML into a project: one transaction, all or nothing. */
import "server-only";
import { createHash } from "node:crypto";
import { and, eq, max } from "drizzle-orm";
import type { Db } from "../../db/client";
import { imports, instances, lexelts } from "../../db/schema";
import { recountLexelts } from "./queue";
import { parseLexeltXml } from "../lexsub/formats/lexelt";
import { type Diagnostic, formatDiagnostic } from "../scoring/diagnostics";
import { type Actor, actorUserId, requireProject } from "./actor";
import { InputError } from "./errors";

export const DEFAULT_MAX_IMPORT_BYTES = 50 * 1024 * 1024;

export function maxImportBytes(): number {
  const v = Number(process.env.LEXGOLD_MAX_IMPORT_BYTES);
  return Number.isFinite(v) && v > 0 ? v : DEFAULT_MAX_IMPORT_BYTES;
}

export interface ImportReport {
  fileName: string;
  lexeltsInFile: number;
  instancesInFile: number;
  lexeltsAdded: number;
  instancesAdded: number;
  instancesAlreadyPresent: number;
  repairs: Diagnostic[];
  /** One sentence saying what happened, for the CLI and the page. */
  message: string;
}

/** Decode UTF-8, refusing invalid bytes with the line they are on. */
function decodeUtf8(fileName: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const loose = new TextDecoder("utf-8").decode(bytes);
    const at = loose.indexOf("\uFFFD");
    const line = loose.slice(0, Math.max(0, at)).split("\n").length;
    throw new InputError(`${fileName}:${line}: not UTF-8 text (invalid byte sequence); nothing was imported.`);
  }
}

function sizeText(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${n} bytes`;
}

/**
 * Import a lexelt XML file into a project. Refuses oversize files before parsing,
 * refuses anything the reader cannot read (naming file and line), and writes
 * everything in one transaction. Instances already in the project with the same
 * lexelt and text are counted, not duplicated; an id already present with other
 * text is refused.
 */
export function importLexeltXml(
  db: Db,
  actor: Actor,
  projectId: number,
  input: { fileName: string; bytes: Uint8Array },
): ImportReport {
  requireProject(db, actor, projectId, { coordinator: true });
  const { fileName, bytes } = input;
  const limit = maxImportBytes();
  if (bytes.byteLength > limit) {
    throw new InputError(
      `${fileName}: ${sizeText(bytes.byteLength)} is over the import limit of ${sizeText(limit)}; nothing was imported.`,
    );
  }
  const text = decodeUtf8(fileName, bytes);
  const parsed = parseLexeltXml(text, fileName, { maxBytes: limit });
  if (parsed.errors.length > 0 || !parsed.corpus) {
    const details = parsed.errors.map(formatDiagnostic);
    throw new InputError(`${details[0] ?? `${fileName}: cannot be read`}; nothing was imported.`, {}, details);
  }
  const corpus = parsed.corpus;
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const importedBy = actor && actor.kind === "user" ? actorUserId(actor) : null;

  return db.transaction((tx) => {
    let lexeltsAdded = 0;
    let instancesAdded = 0;
    let alreadyPresent = 0;
    let lexeltPos = (tx.select({ m: max(lexelts.position) }).from(lexelts).where(eq(lexelts.projectId, projectId)).get()?.m ?? 0) + 1;
    let instancePos = (tx.select({ m: max(instances.position) }).from(instances).where(eq(instances.projectId, projectId)).get()?.m ?? 0) + 1;
    const importRow = tx
      .insert(imports)
      .values({
        projectId,
        fileName,
        sha256,
        lexeltsAdded: 0,
        instancesAdded: 0,
        instancesAlreadyPresent: 0,
        repairs: JSON.stringify(parsed.repairs),
        importedBy,
      })
      .returning({ id: imports.id })
      .get();

    for (const lx of corpus.lexelts) {
      let lexeltId = tx
        .select({ id: lexelts.id })
        .from(lexelts)
        .where(and(eq(lexelts.projectId, projectId), eq(lexelts.item, lx.item)))
        .get()?.id;
      if (lexeltId === undefined) {
        lexeltId = tx
          .insert(lexelts)
          .values({ projectId, item: lx.item, lemma: lx.lemma, pos: lx.pos, originalPos: lx.originalPos, position: lexeltPos++ })
          .returning({ id: lexelts.id })
          .get().id;
        lexeltsAdded++;
      }
      for (const inst of lx.instances) {
        const existing = tx
          .select({ lexeltId: instances.lexeltId, before: instances.before, head: instances.head, after: instances.after })
          .from(instances)
          .where(and(eq(instances.projectId, projectId), eq(instances.instanceId, inst.id)))
          .get();
        if (existing) {
          if (existing.lexeltId === lexeltId && existing.before === inst.before && existing.head === inst.head && existing.after === inst.after) {
            alreadyPresent++;
            continue;
          }
          throw new InputError(
            `${fileName}:${inst.line}: instance id "${inst.id}" is already in the project with another lexelt or text; nothing was imported.`,
          );
        }
        tx.insert(instances)
          .values({
            projectId,
            lexeltId,
            instanceId: inst.id,
            before: inst.before,
            head: inst.head,
            after: inst.after,
            position: instancePos++,
            importId: importRow.id,
          })
          .run();
        instancesAdded++;
      }
    }
    if (instancesAdded > 0) recountLexelts(db, projectId);
    tx.update(imports)
      .set({ lexeltsAdded, instancesAdded, instancesAlreadyPresent: alreadyPresent })
      .where(eq(imports.id, importRow.id))
      .run();

    const instancesInFile = corpus.lexelts.reduce((s, l) => s + l.instances.length, 0);
    const parts = [`${fileName}: ${instancesInFile} instances in ${corpus.lexelts.length} lexelts`];
    if (instancesAdded === 0 && alreadyPresent > 0) parts.push(`all ${alreadyPresent} already in the project; nothing added`);
    else {
      parts.push(`added ${instancesAdded} instances and ${lexeltsAdded} lexelts`);
      if (alreadyPresent > 0) parts.push(`${alreadyPresent} already in the project`);
    }
    if (parsed.repairs.length > 0) parts.push(`${parsed.repairs.length} repairs`);
    return {
      fileName,
      lexeltsInFile: corpus.lexelts.length,
      instancesInFile,
      lexeltsAdded,
      instancesAdded,
      instancesAlreadyPresent: alreadyPresent,
      repairs: parsed.repairs,
      message: parts.join("; ") + ".",
    };
  });
}

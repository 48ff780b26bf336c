/**
 * A model's answers as system files in the task's format (issue #41), for the Scoring tab and
 * `lexgold model export`, scored against the people's gold with the official figures:
 * - best: `lexelt id :: guess`, the first substitute of the sample's answer (NAME and NIL give none);
 * - oot: `lexelt id ::: c1;c2;…`, up to ten ranked candidates from the candidates prompt (a "candidates"
 *   run: calls.ts caches them).
 * Instances without an answer are left out (the scorer counts them unanswered). A guess the format cannot
 * carry (a `;`, a tab or a line break in it) is left out and counted.
 */
import "server-only";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { instances, lexelts, modelCalls, responses, systemRuns } from "../../../db/schema";
import { type Actor, actorUserId, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { storeRunUpload } from "../scoring";
import { modelNamed } from "./connections";
import { candidatesSchema } from "./prompt";
import { samplesOf } from "./samples";

export interface ModelSystemFile {
  fileName: string;
  text: string;
  lines: number;
  /** Guesses left out because the format cannot carry them. */
  dropped: number;
}

const writable = (g: string) => g.trim() !== "" && !/[;\t\r\n]/.test(g);

/** The model's answers as a best or oot system file (coordinators of the project; the CLI). `sample` (best) defaults to 1. */
export function modelSystemFile(db: Db, actor: Actor, projectId: number, name: string, type: unknown, sample: unknown = 1): ModelSystemFile {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  if (type !== "best" && type !== "oot") throw new InputError(`The type is best or oot, not "${String(type)}".`, { type: "best or oot" });
  const m = modelNamed(db, p.id, name);
  const order = db
    .select({ ref: instances.id, lexelt: lexelts.item, instanceId: instances.instanceId })
    .from(instances)
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(eq(instances.projectId, p.id))
    .orderBy(lexelts.position, instances.position)
    .all();
  const lines: string[] = [];
  let dropped = 0;
  if (type === "best") {
    const k = Number(sample);
    const userId = samplesOf(db, m.id).get(k);
    if (!Number.isInteger(k) || userId === undefined) throw new InputError(`"${m.name}" has no sample ${String(sample)}: run it first (lexgold model annotate).`, { sample: "No such sample." });
    const answers = new Map(
      db
        .select({ ref: responses.instanceRef, kind: responses.kind, substitutes: responses.substitutes })
        .from(responses)
        .where(and(eq(responses.projectId, p.id), eq(responses.userId, userId)))
        .all()
        .map((r) => [r.ref, r]),
    );
    for (const o of order) {
      const a = answers.get(o.ref);
      if (!a || a.kind !== "substitutes") continue;
      const first = (JSON.parse(a.substitutes) as string[])[0];
      if (first === undefined) continue;
      if (!writable(first)) {
        dropped++;
        continue;
      }
      lines.push(`${o.lexelt} ${o.instanceId} :: ${first.trim()}`);
    }
  } else {
    const latest = new Map<number, string[]>();
    for (const r of db
      .select({ ref: modelCalls.instanceRef, answer: modelCalls.answer })
      .from(modelCalls)
      .where(and(eq(modelCalls.modelId, m.id), eq(modelCalls.purpose, "candidates"), eq(modelCalls.outcome, "ok")))
      .orderBy(desc(modelCalls.id))
      .all()) {
      if (latest.has(r.ref) || !r.answer) continue;
      const parsed = candidatesSchema.safeParse(JSON.parse(r.answer));
      if (parsed.success) latest.set(r.ref, parsed.data.candidates);
    }
    for (const o of order) {
      const c = latest.get(o.ref);
      if (!c) continue;
      const kept = c.filter(writable).map((g) => g.trim());
      dropped += c.length - kept.length;
      if (kept.length > 0) lines.push(`${o.lexelt} ${o.instanceId} ::: ${kept.slice(0, 10).join(";")}`);
    }
  }
  return { fileName: `${m.name}${type === "best" && Number(sample) !== 1 ? `-${Number(sample)}` : ""}.${type}`, text: lines.length ? lines.join("\n") + "\n" : "", lines: lines.length, dropped };
}

/**
 * Store the model's answers as the Scoring tab's runs `model:NAME` (best from `sample`, and oot when it has
 * candidates), scored against the project's gold; a run of that name is replaced (the answers may have
 * grown since). Returns the runs stored.
 */
export function addModelRuns(db: Db, actor: Actor, projectId: number, name: string, sample: unknown = 1): { type: "best" | "oot"; runId: number; lines: number }[] {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const m = modelNamed(db, p.id, name);
  const out: { type: "best" | "oot"; runId: number; lines: number }[] = [];
  for (const type of ["best", "oot"] as const) {
    const file = modelSystemFile(db, actor, p.id, m.name, type, sample);
    if (file.lines === 0) {
      if (type === "best") throw new InputError(`"${m.name}" has no answers to score yet: run it over the project first.`, { name: "No answers." });
      continue;
    }
    const runName = `model:${m.name}${Number(sample) !== 1 ? ` #${Number(sample)}` : ""}`;
    const stored = db.transaction(() => {
      const old = db.select({ id: systemRuns.id }).from(systemRuns).where(and(eq(systemRuns.projectId, p.id), eq(systemRuns.type, type), eq(systemRuns.name, runName))).all();
      if (old.length) db.delete(systemRuns).where(inArray(systemRuns.id, old.map((o) => o.id))).run();
      return storeRunUpload(db, p.id, actor && actor.kind === "user" ? actorUserId(actor) : null, { fileName: file.fileName, text: file.text, type, name: runName, confirm: true });
    });
    out.push({ type, runId: stored.run.id, lines: file.lines });
  }
  return out;
}

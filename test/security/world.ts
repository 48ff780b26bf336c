/**
 * The security tests' world: two projects, each with its own coordinator and
 * annotator, a small corpus and a response in each, and the six actors every
 * matrix cell is run as. Project "p" is the one the calls are about; "q" and
 * its people are "another project".
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Db } from "../../db/client";
import { type Actor, SYSTEM, type UserActor } from "../../lib/server/kernel/actor";
import { importLexeltXml } from "../../lib/server/corpus/corpus";
import { AuthError, ConflictError, InputError, NotFoundError } from "../../lib/server/kernel/errors";
import { createProject } from "../../lib/server/corpus/projects";
import { saveResponse } from "../../lib/server/annotate/responses";
import { addMember } from "../../lib/server/people/users";
import { actorFor, testDb } from "../support/db";

const enc = (s: string) => new TextEncoder().encode(s);

/** @public project p's corpus, for security tests that build their own world. */
export const P_XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="bright.a"><instance id="p1"><context>a <head>bright</head> morning in the orchard</context></instance><instance id="p2"><context>a <head>bright</head> pupil</context></instance></lexelt>
<lexelt item="keen.a"><instance id="p3"><context>a <head>keen</head> gardener</context></instance></lexelt>
</corpus>
`;

/** Another project's corpus: its ids and words appear nowhere in p. */
const Q_XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="murky.a"><instance id="q1"><context>the <head>murky</head> canal of the quayside</context></instance><instance id="q2"><context>a <head>murky</head> deal</context></instance></lexelt>
</corpus>
`;

/** The actors, in the order the matrix's expectation strings list them. */
export const ACTORS = ["signedOut", "annotatorOfOther", "annotator", "coordinatorOfOther", "coordinator", "system"] as const;
export type ActorKey = (typeof ACTORS)[number];

export interface World {
  db: Db;
  p: { id: number; name: string };
  q: { id: number; name: string };
  coord: UserActor;
  ann: UserActor;
  coordQ: UserActor;
  annQ: UserActor;
  /** Instance database ids (refs) by instance id, both projects. */
  ref: Record<"p1" | "p2" | "q1" | "q2", number>;
  lexeltP: number;
  actor(key: ActorKey): Actor;
}

export function world(): World {
  const db = testDb();
  const coord = actorFor(db, "coord", "coordinator");
  const ann = actorFor(db, "ann", "annotator");
  const coordQ = actorFor(db, "coordq", "coordinator");
  const annQ = actorFor(db, "annq", "annotator");
  const p = createProject(db, coord, { name: "p" });
  const q = createProject(db, coordQ, { name: "q" });
  addMember(db, coord, p.id, "ann");
  addMember(db, coordQ, q.id, "annq");
  importLexeltXml(db, coord, p.id, { fileName: "p.xml", bytes: enc(P_XML) });
  importLexeltXml(db, coordQ, q.id, { fileName: "q.xml", bytes: enc(Q_XML) });
  const refs = db.$client.prepare("select id, instance_id as iid from instances").all() as { id: number; iid: string }[];
  const ref = Object.fromEntries(refs.map((r) => [r.iid, r.id])) as World["ref"];
  const lexeltP = (db.$client.prepare("select id from lexelts where project_id = ? order by position").get(p.id) as { id: number }).id;
  saveResponse(db, ann, p.id, ref.p1, { kind: "substitutes", substitutes: ["shining", "sunny"], multiword: false, phrase: "" }, { expectedRevision: 0 });
  saveResponse(db, annQ, q.id, ref.q1, { kind: "substitutes", substitutes: ["gloomy"], multiword: false, phrase: "" }, { expectedRevision: 0 });
  const byKey: Record<ActorKey, Actor> = {
    signedOut: null,
    annotatorOfOther: annQ,
    annotator: ann,
    coordinatorOfOther: coordQ,
    coordinator: coord,
    system: SYSTEM,
  };
  return { db, p, q, coord, ann, coordQ, annQ, ref, lexeltP, actor: (k) => byKey[k] };
}

/** What a call did: "ok", or the HTTP-like status of the refusal (401, 403, 404; 400 bad input, 409 conflict). */
export type Outcome = "ok" | "401" | "403" | "404" | "400" | "409";

export function outcomeOf(e: unknown): Outcome {
  if (e instanceof AuthError || e instanceof NotFoundError || e instanceof InputError || e instanceof ConflictError) {
    return String(e.status) as Outcome;
  }
  throw e;
}

/** Every row of every table but the sign-in limiter's, to show a refused call wrote nothing. */
export function dump(db: Db): Record<string, unknown[]> {
  const tables = db.$client
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name")
    .all() as { name: string }[];
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    if (name === "sign_in_failures") continue;
    out[name] = db.$client.prepare(`select * from "${name}" order by rowid`).all();
  }
  return out;
}

/** "401 404 ok 404 ok ok" → one outcome per actor, in ACTORS order. */
export function parseExpect(s: string): Record<ActorKey, Outcome> {
  const parts = s.trim().split(/\s+/);
  if (parts.length !== ACTORS.length) throw new Error(`expected ${ACTORS.length} outcomes, got "${s}"`);
  return Object.fromEntries(ACTORS.map((a, i) => [a, parts[i] as Outcome])) as Record<ActorKey, Outcome>;
}

/**
 * The files under dir (relative to the repository) that git tracks, so that the
 * coverage checks judge committed code, not another engineer's work in progress;
 * every file when git is not available (an exported tarball).
 */
export function trackedFiles(repoRoot: string, dir: string): Set<string> | null {
  try {
    const out = execFileSync("git", ["ls-files", "-z", dir], { cwd: repoRoot, stdio: ["ignore", "pipe", "ignore"] }).toString();
    const files = out.split("\0").filter(Boolean);
    return files.length > 0 ? new Set(files.map((f) => path.resolve(repoRoot, f))) : null;
  } catch {
    return null;
  }
}

/** A NIL answer, the simplest valid response. */
export const NIL = { kind: "NIL", substitutes: [] as string[], multiword: false };

/**
 * A judge in the world: the account "jud" (an annotator account), a judge in p and an annotator
 * in q — one account, a different role in each project. Added by the CLI.
 */
export function addJudge(w: World): UserActor {
  const jud = actorFor(w.db, "jud", "annotator");
  addMember(w.db, SYSTEM, w.p.id, "jud", "judge");
  addMember(w.db, SYSTEM, w.q.id, "jud", "annotator");
  return jud;
}

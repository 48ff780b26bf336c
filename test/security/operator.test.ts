/**
 * The operator's functions (lib/server/ops/deploy.ts and backup.ts's file
 * operations) work on files, not on one project's rows, so they are not in the
 * (db, actor) matrix: only the CLI (SYSTEM) may call them. Every signed-in user,
 * coordinators included, is refused (403), nobody signed in gets 401, and a
 * refusal creates no file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SYSTEM } from "../../lib/server/kernel/actor";
import { backupDatabase, backupToDirectory, restoreDatabase } from "../../lib/server/ops/backup";
import { doctor, initStudy, planStart } from "../../lib/server/ops/deploy";
import { openDb } from "../../db/client";
import { ACTORS, type ActorKey, outcomeOf, world } from "./world";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-operator-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
// init writes the secret: into the temp directory, never the checkout's own .lexgold-secret.
process.env.LEXGOLD_SECRET_FILE = path.join(dir, "secret");
delete process.env.NEXTAUTH_SECRET;
const live = path.join(dir, "live.db");
openDb(live).$client.close();

const CALLS: Array<{ name: string; call: (actor: ReturnType<ReturnType<typeof world>["actor"]>, out: string) => unknown }> = [
  { name: "initStudy", call: (a, out) => initStudy(a, { dbFile: path.join(out, "new.db"), name: "intruder", password: "long-enough-password" }) },
  { name: "planStart", call: (a, out) => planStart(a, { dbFile: path.join(out, "new.db"), host: "127.0.0.1", port: 3000 }) },
  { name: "doctor", call: (a, out) => doctor(a, { dbFile: path.join(out, "new.db"), backupDir: out }) },
  {
    name: "backupToDirectory",
    call: async (a, out) => {
      const db = openDb(live);
      try {
        return await backupToDirectory(db, a, path.join(out, "backups"), { keep: 1 });
      } finally {
        db.$client.close();
      }
    },
  },
  {
    name: "backupDatabase",
    call: async (a, out) => {
      const db = openDb(live);
      try {
        return await backupDatabase(db, a, path.join(out, "one.db"));
      } finally {
        db.$client.close();
      }
    },
  },
  { name: "restoreDatabase", call: (a, out) => restoreDatabase(a, live, path.join(out, "restored.db")) },
];

const WANT: Record<ActorKey, string> = { signedOut: "401", annotatorOfOther: "403", annotator: "403", coordinatorOfOther: "403", coordinator: "403", system: "ok" };

describe("operator functions × actor", () => {
  for (const c of CALLS) {
    for (const k of ACTORS.filter((k) => k !== "system")) {
      it(`${c.name}: ${k} ${WANT[k]}`, async () => {
        const w = world();
        const out = fs.mkdtempSync(path.join(dir, "out-"));
        let got = "ok";
        try {
          await c.call(w.actor(k), out);
        } catch (e) {
          got = outcomeOf(e);
        }
        expect(got).toBe(WANT[k]);
        expect(fs.readdirSync(out)).toEqual([]);
      });
    }
    it(`${c.name}: system ok`, async () => {
      const out = fs.mkdtempSync(path.join(dir, "out-"));
      await expect(Promise.resolve().then(() => c.call(SYSTEM, out))).resolves.toBeDefined();
    });
  }
});

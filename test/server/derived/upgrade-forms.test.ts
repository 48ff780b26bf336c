/**
 * Migration 0032 (lemma_forms' proposal figures): a database upgraded from 0031 has its kept forms
 * without those figures (the columns added at 0). The migration takes the forms out of the kept
 * figures and queues every instance; once the queue is worked through, every derived table is what
 * the maintenance keeps for the same answers — the proposals' figures included — and the Gold page's
 * open proposals read from them.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "../../../db/client";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { openProposalsOf } from "../../../lib/server/derived/lemma-review";
import { drainAll, queuedCount } from "../../../lib/server/derived/queue";
import { bigProject } from "../../support/big-project";
import { derivedTables } from "../../support/full-derivation";

const answer = (subs: string[]) => ({ kind: "substitutes", substitutes: subs, multiword: false });

/** The statements of a migration that change rows (after its columns and index are added). */
function dataStatements(file = "0032_lemma_form_proposals.sql"): string[] {
  const sql = fs.readFileSync(path.join(migrationsFolder(), file), "utf8");
  return sql
    .split("--> statement-breakpoint")
    .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
    .filter((s) => s !== "" && !/^(ALTER|CREATE)\b/i.test(s));
}

describe("migration 0032 on a project with kept figures", () => {
  it("builds the forms' figures again, proposals included, and leaves every other figure as it was", () => {
    const b = bigProject({ instances: 30, answered: 20 });
    // Inflected forms (proposals) and forms typed in several instances.
    b.refs.slice(0, 12).forEach((ref, k) => saveResponse(b.db, b.fresh, b.projectId, ref, answer([["jumps", "leaves", "running", "took place"][k % 4], ["calm", "quiet", "still"][k % 3]]), { expectedRevision: 0 }));
    drainAll(b.db, b.projectId);
    const kept = derivedTables(b.db, b.projectId);
    const proposals = openProposalsOf(b.db, b.projectId, "en", 50);
    expect(proposals.count).toBeGreaterThan(0);

    // As a database upgraded from 0031 holds them: the figures' columns added at 0.
    b.db.$client.prepare("update lemma_forms set proposal_count = 0, proposal_uses = 0, proposal_top = 0").run();
    expect(openProposalsOf(b.db, b.projectId, "en", 50)).toMatchObject({ count: 0, uses: 0, first: [] });
    const statements = dataStatements();
    expect(statements.length).toBe(4);
    b.db.$client.transaction(() => statements.forEach((s) => b.db.$client.exec(s)))();
    expect(queuedCount(b.db, b.projectId)).toBe(b.refs.length);
    expect((b.db.$client.prepare("select count(*) as n from lemma_forms").get() as { n: number }).n).toBe(0);

    drainAll(b.db, b.projectId);
    expect(derivedTables(b.db, b.projectId)).toEqual(kept);
    expect(openProposalsOf(b.db, b.projectId, "en", 50)).toEqual(proposals);
  });
});

describe("migration 0034 on a project with kept forms", () => {
  it("counts each kept form's spellings with other spacing, as the maintenance keeps them", () => {
    const b = bigProject({ instances: 30, answered: 20 });
    // Answers imported as written: spellings with other spacing than their form's, of forms with and without a proposal.
    const spelled = [["still ", "jumps"], [" still", "calm"], ["jumps  ", "quiet"], ["still", "leaves "], ["took  place", "still "]];
    const write = b.db.$client.prepare("update responses set substitutes = ? where instance_ref = ?");
    const queue = b.db.$client.prepare("insert into derive_queue (instance_ref, project_id) values (?, ?) on conflict do nothing");
    b.refs.slice(0, 10).forEach((ref, k) => {
      write.run(JSON.stringify(spelled[k % spelled.length]), ref);
      queue.run(ref, b.projectId);
    });
    drainAll(b.db, b.projectId);
    const kept = derivedTables(b.db, b.projectId);
    const proposals = openProposalsOf(b.db, b.projectId, "en", 50);
    // "still " and " still", "jumps  ", "leaves ", "took  place".
    expect(proposals.spacing).toBe(5);

    // As a database upgraded from 0033 holds them: the count's column added at 0.
    b.db.$client.prepare("update lemma_forms set spacing_count = 0").run();
    expect(openProposalsOf(b.db, b.projectId, "en", 50).spacing).toBe(0);
    const statements = dataStatements("0034_lemma_form_spacing.sql");
    expect(statements.length).toBe(1);
    b.db.$client.transaction(() => statements.forEach((s) => b.db.$client.exec(s)))();
    expect(derivedTables(b.db, b.projectId)).toEqual(kept);
    expect(openProposalsOf(b.db, b.projectId, "en", 50)).toEqual(proposals);
  });
});

describe("migration 0036 on a project with kept (person, lexelt) counts", () => {
  it("sums each person's counts into their totals, as its triggers keep them", () => {
    const b = bigProject({ instances: 30, answered: 20 });
    b.refs.slice(0, 8).forEach((ref, k) => saveResponse(b.db, b.fresh, b.projectId, ref, answer([["calm", "quiet"][k % 2]]), { expectedRevision: 0 }));
    drainAll(b.db, b.projectId);
    const kept = derivedTables(b.db, b.projectId);
    // busy's 20 answers and fresh's 8, each with their latest save.
    expect(kept.annotator_totals.map((r) => (r as { responses: number }).responses).sort((x, y) => x - y)).toEqual([8, 20]);

    // As a database upgraded from 0035 holds them: no totals yet.
    b.db.$client.prepare("delete from annotator_totals").run();
    const statements = dataStatements("0036_annotator_totals.sql");
    expect(statements.length).toBe(1);
    b.db.$client.transaction(() => statements.forEach((s) => b.db.$client.exec(s)))();
    expect(derivedTables(b.db, b.projectId)).toEqual(kept);
  });
});

/**
 * lib/server/crowd/payments.ts: the payment files of a study, line by line, as the
 * platforms take them (Prolific's bulk approve and bulk bonus boxes, Mechanical Turk's
 * batch-results upload), and the participants table as TSV with safe cells.
 */
import { describe, expect, it } from "vitest";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { createProject } from "../../../lib/server/corpus/projects";
import { reviewParticipant, setBonus } from "../../../lib/server/crowd/participants";
import { amount, paymentFile } from "../../../lib/server/crowd/payments";
import { InputError } from "../../../lib/server/kernel/errors";
import { answer, seedParticipant, seedStudy } from "../../support/crowd";
import { actorFor, testDb } from "../../support/db";

const XML = `<?xml version="1.0"?>
<corpus lang="english"><lexelt item="bright.a"><instance id="p1"><context>a <head>bright</head> morning</context></instance></lexelt></corpus>
`;

function setup(platform: "prolific" | "mturk") {
  const db = testDb();
  const coord = actorFor(db, "coord", "coordinator");
  const p = createProject(db, coord, { name: "p" });
  importLexeltXml(db, coord, p.id, { fileName: "p.xml", bytes: new TextEncoder().encode(XML) });
  const ref = (db.$client.prepare("select id from instances").get() as { id: number }).id;
  const study = seedStudy(db, p.id, { name: "wave 1", platform, batchSize: 1, overlap: 4 });
  const ids = platform === "prolific" ? ["60a1", "60a2", "60a3", "60a4"].map((x) => x.padEnd(24, "0")) : ["A1WORKER", "A2WORKER", "A3WORKER", "A4WORKER"];
  const ps = ids.map((id, k) => seedParticipant(db, study, id, { refs: [ref], session: platform === "mturk" ? `3ASSIGN${k}` : `sess${k}`, hit: "3HIT", state: "finished", joinedAt: 1_000 + k }));
  ps.forEach((x, k) => answer(db, p.id, x, ref, [["sunny", "shining", "clear", "vivid"][k]]));
  // 1 approved with 1.50, 2 rejected (with a bonus that is not paid), 3 approved with 0.05, 4 pending with 2.00.
  reviewParticipant(db, coord, p.id, { participantId: ps[0].id, review: "approved" });
  reviewParticipant(db, coord, p.id, { participantId: ps[1].id, review: "rejected", reason: 'Failed the checks, "sorry", truly' });
  reviewParticipant(db, coord, p.id, { participantId: ps[2].id, review: "approved" });
  setBonus(db, coord, p.id, { participantId: ps[0].id, bonus: "1.50" });
  setBonus(db, coord, p.id, { participantId: ps[1].id, bonus: "3" });
  setBonus(db, coord, p.id, { participantId: ps[2].id, bonus: "0.05" });
  setBonus(db, coord, p.id, { participantId: ps[3].id, bonus: "2" });
  return { db, coord, p, study, ids, ps };
}

describe("payment files", () => {
  it("Prolific: the approved ids one per line; the bonuses as id,pounds with two decimals, rejected left out", () => {
    const { db, coord, p, study, ids } = setup("prolific");
    const approve = paymentFile(db, coord, p.id, study, "prolific-approve");
    expect(approve.text).toBe(`${ids[0]}\n${ids[2]}\n`);
    expect(approve.fileName).toBe("p-wave-1-approve.txt");
    const bonus = paymentFile(db, coord, p.id, study, "prolific-bonus");
    expect(bonus.text).toBe(`${ids[0]},1.50\n${ids[2]},0.05\n${ids[3]},2.00\n`);
    expect(bonus.contentType).toMatch(/^text\/csv/);
  });

  it("Mechanical Turk: HITId, AssignmentId, WorkerId, Approve x, Reject with the reason as feedback; pending assignments left to review", () => {
    const { db, coord, p, study } = setup("mturk");
    const f = paymentFile(db, coord, p.id, study, "mturk");
    expect(f.text).toBe(
      ["HITId,AssignmentId,WorkerId,Approve,Reject", "3HIT,3ASSIGN0,A1WORKER,x,", '3HIT,3ASSIGN1,A2WORKER,,"Failed the checks, ""sorry"", truly"', "3HIT,3ASSIGN2,A3WORKER,x,", ""].join("\n"),
    );
    expect(f.fileName).toBe("p-wave-1-mturk-review.csv");
  });

  it("the full table as TSV: a header and one line per participant, every cell one line and spreadsheet-safe", () => {
    const { db, coord, p, study, ps } = setup("mturk");
    reviewParticipant(db, coord, p.id, { participantId: ps[3].id, review: "rejected", reason: "=HYPERLINK(\"http://evil.example\")\tand\na tab" });
    const f = paymentFile(db, coord, p.id, study, "tsv");
    const lines = f.text.split("\n");
    expect(lines[0]).toBe(
      "platform_id\tsession_id\tstate\tjoined\tfinished\ttime_on_task_s\tanswered\tbatch\tchecks_seen\tchecks_passed\tagreement\tmedian_s_per_item\tflags\treview\treason\tbonus\tleft_out_of_gold",
    );
    expect(lines).toHaveLength(6);
    const cells = lines.slice(1, 5).map((l) => l.split("\t"));
    for (const row of cells) expect(row).toHaveLength(17);
    expect(cells[0].slice(0, 3)).toEqual(["A1WORKER", "3ASSIGN0", "finished"]);
    expect([cells[0][6], cells[0][7], cells[0][13], cells[0][15]]).toEqual(["1", "1", "approved", "1.50"]);
    // Each of the four gave a different single substitute to p1: every pair has 0 in common.
    expect(cells[0][10]).toBe("0.0000");
    expect(cells[3][14]).toBe("'=HYPERLINK(\"http://evil.example\") and a tab");
    for (const c of cells.flat()) expect(c).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("an unknown file is refused; amounts are exact hundredths", () => {
    const { db, coord, p, study } = setup("prolific");
    expect(() => paymentFile(db, coord, p.id, study, "all-the-money")).toThrow(InputError);
    expect([amount(0), amount(5), amount(150), amount(100_000)]).toEqual(["0.00", "0.05", "1.50", "1000.00"]);
  });
});

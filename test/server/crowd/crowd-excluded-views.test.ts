/**
 * A participant left out of the gold (lib/server/crowd/participants.ts excludeRejected) is left out
 * of every coordinator view derived from the answers as the gold lines are: the Gold page's
 * instance cards, the Agreement report, the Progress tab's and the Crowd tab's complete instances
 * (the participants table's agreement keeps them: it judges the participant); the responses
 * download keeps their answers, marked LEFT OUT. And every change to participant_exclusions,
 * cascaded deletes included, raises the project's data version, so kept derivations are redone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { createProject } from "../../../lib/server/corpus/projects";
import { excludeRejected, reviewParticipant, studyOverviews, undoExclusion } from "../../../lib/server/crowd/participants";
import { projectProgress } from "../../../lib/server/annotate/progress";
import { agreementPageData } from "../../../lib/server/gold/agreement";
import { keepDerivationInputs, projectGold } from "../../../lib/server/gold/gold";
import { exportAdjudicatedResponses, goldPageData } from "../../../lib/server/gold/gold-review";
import { dataVersion } from "../../../lib/server/kernel/data-version";
import { answer, seedParticipant, seedStudy } from "../../support/crowd";
import { actorFor, testDb } from "../../support/db";

const XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="bright.a"><instance id="p1"><context>a <head>bright</head> morning</context></instance><instance id="p2"><context>a <head>bright</head> pupil</context></instance></lexelt>
</corpus>
`;

/** Three participants answer p1 and p2; c is rejected and left out of the gold. */
function setup() {
  const db = testDb();
  const coord = actorFor(db, "coord", "coordinator");
  const p = createProject(db, coord, { name: "p" });
  importLexeltXml(db, coord, p.id, { fileName: "p.xml", bytes: new TextEncoder().encode(XML) });
  const ref = Object.fromEntries((db.$client.prepare("select id, instance_id as iid from instances").all() as { id: number; iid: string }[]).map((r) => [r.iid, r.id])) as Record<"p1" | "p2", number>;
  const study = seedStudy(db, p.id, { name: "pilot", batchSize: 2, overlap: 3 });
  const [a, b, c] = ["a", "b", "c"].map((id, k) => seedParticipant(db, study, `pid-${id}`, { refs: [ref.p1, ref.p2], state: "finished", joinedAt: 1_000 + k }));
  answer(db, p.id, a, ref.p1, ["shining"]);
  answer(db, p.id, a, ref.p2, ["clever"]);
  answer(db, p.id, b, ref.p1, ["shining", "sunny"]);
  answer(db, p.id, b, ref.p2, ["clever"]);
  answer(db, p.id, c, ref.p1, ["xylophone"]);
  answer(db, p.id, c, ref.p2, ["xylophone"]);
  reviewParticipant(db, coord, p.id, { participantId: c.id, review: "rejected", reason: "random answers" });
  excludeRejected(db, coord, p.id, study);
  return { db, coord, p, study, a, b, c };
}

afterEach(() => keepDerivationInputs(false));

describe("views derived from the answers leave out what the gold leaves out", () => {
  it("the Gold page's instance cards, the Agreement report, Progress's and the Crowd tab's complete instances; undo brings them back", () => {
    const { db, coord, p, study, c } = setup();
    const cards = () => goldPageData(db, coord, p.id).instancePage.rows.map((r) => [r.item.instanceId, r.typed.map((t) => `${t.annotator}:${t.substitutes.join(";")}`)]);
    expect(projectGold(db, coord, p.id).gold).not.toContain("xylophone");
    expect(cards()).toEqual([
      ["p1", [`pid-a@study${study}:shining`, `pid-b@study${study}:shining;sunny`]],
      ["p2", [`pid-a@study${study}:clever`, `pid-b@study${study}:clever`]],
    ]);
    expect(goldPageData(db, coord, p.id).annotators).not.toContain(c.actor.name);
    expect(agreementPageData(db, coord, p.id).report.perAnnotator.map((x) => x.annotator)).not.toContain(c.actor.name);
    // Three answers needed: each instance has three responses, two the gold counts.
    db.$client.prepare("update projects set required_annotators = 3 where id = ?").run(p.id);
    const progress = projectProgress(db, coord, p.id);
    expect([progress.responses, progress.complete]).toEqual([6, 0]);
    // The Crowd tab's instances complete (3 answers each from the study's participants): none without c.
    expect(studyOverviews(db, coord, p.id)[0]).toMatchObject({ joined: 3, complete: 0 });

    undoExclusion(db, coord, p.id, study);
    expect(cards()[0][1]).toContain(`${c.actor.name}:xylophone`);
    expect(agreementPageData(db, coord, p.id).report.perAnnotator.map((x) => x.annotator)).toContain(c.actor.name);
    expect(projectProgress(db, coord, p.id).complete).toBe(2);
    expect(studyOverviews(db, coord, p.id)[0]).toMatchObject({ complete: 2 });
  });

  it("the responses download keeps the left-out answers as given, marked LEFT OUT with the decision; the others unmarked", () => {
    const { db, coord, p, c } = setup();
    const lines = exportAdjudicatedResponses(db, coord, p.id).trimEnd().split("\n");
    expect(lines[0].split("\t").slice(-2)).toEqual(["adjudicated", "adjudication"]);
    const theirs = lines.filter((l) => l.startsWith(`${c.actor.name}\t`));
    expect(theirs).toHaveLength(2);
    for (const l of theirs) {
      const cells = l.split("\t");
      expect(cells[3]).toBe("xylophone");
      expect(cells.at(-2)).toBe("LEFT OUT");
      expect(cells.at(-1)).toMatch(/^participant left out of the gold by coord \d{4}-\d\d-\d\dT/);
    }
    expect(lines.slice(1).filter((l) => !l.startsWith(`${c.actor.name}\t`)).map((l) => l.split("\t").slice(-2))).toEqual(Array(4).fill(["", ""]));
  });
});

describe("every change to participant_exclusions raises the data version", () => {
  it("a participant deleted (their exclusion cascades): the version rises and a kept derivation is redone with their answers back", () => {
    const { db, coord, p, c } = setup();
    keepDerivationInputs(true);
    expect(projectGold(db, coord, p.id).gold).not.toContain("xylophone");
    const v = dataVersion(db, p.id);
    db.$client.prepare("delete from participants where id = ?").run(c.id);
    expect(db.$client.prepare("select count(*) as n from participant_exclusions").get()).toEqual({ n: 0 });
    expect(dataVersion(db, p.id)).toBeGreaterThan(v);
    // c's account and answers stay; with no exclusion left the gold counts them again.
    expect(projectGold(db, coord, p.id).gold).toContain("xylophone");
  });

  it("an exclusion row written, undone or deleted directly; the participant's account deleted; the project deleted (no version left behind)", () => {
    const { db, p, c } = setup();
    const changes = [
      () => db.$client.prepare("update participant_exclusions set undone_at = 1").run(),
      () => db.$client.prepare("delete from participant_exclusions").run(),
      () => db.$client.prepare("insert into participant_exclusions (project_id, participant_id, decided_at) values (?, ?, 1)").run(p.id, c.id),
      () => db.$client.prepare("delete from users where id = ?").run(c.actor.userId),
    ];
    for (const change of changes) {
      const v = dataVersion(db, p.id);
      change();
      expect(dataVersion(db, p.id)).toBeGreaterThan(v);
    }
    db.$client.prepare("delete from projects where id = ?").run(p.id);
    expect(db.$client.prepare("select count(*) as n from data_versions where project_id = ?").get(p.id)).toEqual({ n: 0 });
  });
});

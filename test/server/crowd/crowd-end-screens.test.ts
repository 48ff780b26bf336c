/**
 * Issue #38, finding 6: on Mechanical Turk the end screen always posts the assignment back to
 * externalSubmit — with the completion code when the study has one, without it when it has none
 * (the worker cannot be paid for an assignment never submitted) — and a screened-out worker's
 * screen offers the same form, with what happened. Rendered from the participant's view as the
 * workspace's page renders it.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ParticipantEnd } from "../../../app/annotate/completion";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { participantView } from "../../../lib/server/annotate/participant";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { projectFixture } from "../../support/db";
import { makeParticipant, makeStudy } from "../../support/crowd";

const XML = `<?xml version="1.0"?>
<corpus lang="english"><lexelt item="quick.a"><instance id="a1"><context>a <head>quick</head> look</context></instance></lexelt></corpus>
`;

function endScreen(study: Parameters<typeof makeStudy>[2], state: "finished" | "screened-out" = "finished") {
  const { db, coord, project } = projectFixture();
  importLexeltXml(db, coord, project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(XML) });
  const ref = (db.$client.prepare("select id from instances where instance_id = 'a1'").get() as { id: number }).id;
  const studyId = makeStudy(db, project.id, study);
  const p = makeParticipant(db, studyId, "w1", [ref], { platformSessionId: "3XYZ0ASSIGN1", submitTo: "https://workersandbox.mturk.com" });
  if (state === "finished") saveResponse(db, p.actor, project.id, ref, { kind: "NIL", substitutes: [], multiword: false }, { expectedRevision: 0 });
  else db.$client.prepare("update participants set state = 'screened-out' where id = ?").run(p.participantId);
  const view = participantView(db, p.actor)!;
  return renderToStaticMarkup(createElement(ParticipantEnd, { view, reviewHref: null }));
}

/** The externalSubmit form's action and fields, or null when there is none. */
function submitForm(html: string): { action: string; fields: Record<string, string> } | null {
  const form = /<form action="([^"]+)" method="post">([\s\S]*?)<\/form>/.exec(html);
  if (!form) return null;
  const fields = Object.fromEntries([...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]));
  return { action: form[1].replace(/&amp;/g, "&"), fields };
}

describe("Mechanical Turk's end screens", () => {
  it("a study without a completion code still posts the assignment to externalSubmit", () => {
    const html = endScreen({ platform: "mturk", completionCode: "" });
    expect(submitForm(html)).toEqual({ action: "https://workersandbox.mturk.com/mturk/externalSubmit", fields: { assignmentId: "3XYZ0ASSIGN1", status: "completed" } });
    expect(html).not.toContain("you may close this page");
  });

  it("with a completion code: the code shown and posted", () => {
    const html = endScreen({ platform: "mturk", completionCode: "MT-OK" });
    expect(submitForm(html)).toEqual({ action: "https://workersandbox.mturk.com/mturk/externalSubmit", fields: { assignmentId: "3XYZ0ASSIGN1", completionCode: "MT-OK", status: "completed" } });
    expect(html).toContain('data-testid="participant-code"');
  });

  it("screened out, with or without a screen-out code: the assignment goes back too", () => {
    expect(submitForm(endScreen({ platform: "mturk", completionCode: "", screenOutCode: "" }, "screened-out"))).toEqual({
      action: "https://workersandbox.mturk.com/mturk/externalSubmit",
      fields: { assignmentId: "3XYZ0ASSIGN1", status: "screened-out" },
    });
    expect(submitForm(endScreen({ platform: "mturk", screenOutCode: "N0PE" }, "screened-out"))?.fields).toEqual({ assignmentId: "3XYZ0ASSIGN1", completionCode: "N0PE", status: "screened-out" });
  });

  it("elsewhere nothing is posted: Prolific's return link, a plain link's code", () => {
    expect(submitForm(endScreen({ platform: "prolific", completionCode: "C0DE" }))).toBeNull();
    const link = endScreen({ platform: "link", completionCode: "" });
    expect(submitForm(link)).toBeNull();
    expect(link).toContain("you may close this page");
  });
});

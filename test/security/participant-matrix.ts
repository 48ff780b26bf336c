/**
 * The participant role in the authorization matrix (issue #32): every line of CALLS
 * (matrix.test.ts) is run again as a study participant of p — in the annotator's place —
 * and as a participant of q — in the annotator of the other project's place. Each gets
 * that annotator's outcome, except the calls listed in REFUSED_MORE, where a participant
 * is refused what an annotator may do; never is a participant allowed what the annotator
 * is refused. A refused call writes nothing; an allowed one shows nothing of the other project.
 *
 * A participant here: a users row with role "participant", a member of their study's
 * project as its annotator, with a batch of the project's first two instances (p1, p2 in p;
 * q1, q2 in q) — rows inserted as joining a study makes them (test/support/crowd.ts).
 */
import { describe, expect, it } from "vitest";
import type { UserActor } from "../../lib/server/kernel/actor";
import { makeParticipant, makeStudy } from "../support/crowd";
import { type ActorKey, dump, type Outcome, outcomeOf, parseExpect, type World, world } from "./world";

/** A line of CALLS, as this runner needs it. */
interface MatrixCall {
  name: string;
  expect: string;
  call: (w: World, k: ActorKey) => unknown;
  prep?: (w: World) => void | Promise<void>;
}

/**
 * Calls where a participant is refused more than the annotator in their place, with the
 * outcome and why. Keyed by the CALLS line's name.
 */
const REFUSED_MORE: Record<string, { p: Outcome; q: Outcome; why: string }> = {
  // They joined by a link and have no password (lib/server/people/accounts.ts).
  changeOwnPassword: { p: "403", q: "403", why: "a participant has no password" },
  // Screening: a participant's one training attempt decides (lib/server/annotate/participant.ts).
  retryTraining: { p: "403", q: "404", why: "a participant takes the training once" },
  // The round (withRound) names the annotator its judge; a participant is never a round's judge (setJudges refuses them).
  nextJudgeItem: { p: "403", q: "404", why: "not the round's judge" },
  saveLabel: { p: "403", q: "404", why: "not the round's judge" },
};

/** The world with a study in each project and a participant of each, standing in for the annotator and the annotator of q. */
function participantWorld(): { w: World; pp: UserActor; pq: UserActor } {
  const w = world();
  const pp = makeParticipant(w.db, makeStudy(w.db, w.p.id), "pp", [w.ref.p1, w.ref.p2]).actor;
  const pq = makeParticipant(w.db, makeStudy(w.db, w.q.id), "pq", [w.ref.q1, w.ref.q2]).actor;
  return { w, pp, pq };
}

/** Nothing of the other project in an allowed call's result. */
function nothingOf(project: "p" | "q", result: unknown) {
  const text = JSON.stringify(result) ?? "";
  const markers = project === "q" ? ["murky", "quayside", "gloomy", "annq", "coordq", '"q1"', '"q2"'] : ["orchard", "pupil", "gardener", "shining", '"coord"', '"p1"', '"p2"'];
  for (const m of markers) expect(text).not.toContain(m);
}

export function participantMatrix(calls: readonly MatrixCall[]): void {
  describe("data access layer × a study participant", () => {
    it("REFUSED_MORE names only lines of CALLS", () => {
      const names = new Set(calls.map((c) => c.name));
      expect(Object.keys(REFUSED_MORE).filter((n) => !names.has(n))).toEqual([]);
    });
    for (const c of calls) {
      const want = parseExpect(c.expect);
      for (const [as, key, stands, other] of [
        ["of p", "annotator", "pp", "q"],
        ["of q", "annotatorOfOther", "pq", "p"],
      ] as const) {
        const more = REFUSED_MORE[c.name];
        const expected: Outcome = more ? (as === "of p" ? more.p : more.q) : want[key];
        it(`${c.name}, a participant ${as}: ${expected}`, async () => {
          if (more) expect(more[as === "of p" ? "p" : "q"]).not.toBe("ok");
          const { w, pp, pq } = participantWorld();
          const participant = stands === "pp" ? pp : pq;
          const as_: World = { ...w, actor: (k) => (k === key ? participant : w.actor(k)) };
          await c.prep?.(as_);
          const before = dump(w.db);
          let got: Outcome;
          let result: unknown;
          try {
            result = await c.call(as_, key);
            got = "ok";
          } catch (e) {
            got = outcomeOf(e);
          }
          expect(got).toBe(expected);
          if (got !== "ok") expect(dump(w.db)).toEqual(before);
          // A participant of p sees nothing of q; one of q, whose calls are about p, nothing of p beyond the refusal.
          else if (as === "of p") nothingOf("q", result);
        });
      }
    }
  });
}

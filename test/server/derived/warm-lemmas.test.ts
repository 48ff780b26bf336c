/**
 * The server reads the lemmatisers of its projects' languages before it serves (lib/serve
 * openDatabase → warmLemmaProposers), so that no save waits for WordNet's files: English projects'
 * lemmatiser is read, a language with none is passed over, and a database with no project reads
 * nothing.
 */
import { describe, expect, it } from "vitest";
import { createProject } from "../../../lib/server/corpus/projects";
import { warmLemmaProposers } from "../../../lib/server/derived/lemmas";
import { actorFor, testDb } from "../../support/db";

describe("warmLemmaProposers", () => {
  it("reads the lemmatiser of each language with one, once, and passes over the others", () => {
    const db = testDb();
    expect(warmLemmaProposers(db)).toEqual([]);
    const coord = actorFor(db, "coord", "coordinator");
    createProject(db, coord, { name: "german", language: "de" });
    expect(warmLemmaProposers(db)).toEqual([]);
    createProject(db, coord, { name: "english" });
    createProject(db, coord, { name: "british", language: "en-GB" });
    createProject(db, coord, { name: "english again" });
    expect(warmLemmaProposers(db).sort()).toEqual(["en", "en-GB"]);
    // WordNet's data is the process's from now on (lib/wordnet/load.ts keeps it).
    expect((globalThis as { lexgoldWordNet?: unknown }).lexgoldWordNet).toBeDefined();
  });
});

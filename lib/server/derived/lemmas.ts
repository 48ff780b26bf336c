/** Where a project's lemma proposals come from (the gold's lemmatiser, the lemma review, the training's judge). */
import "server-only";
import type { Db } from "../../../db/client";
import { projects } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { isEnglish } from "../../lexsub/language";
import type { LemmaProposer } from "../../lexsub/morphy";
import { proposeNothing } from "../../lexsub/normalize";
import { wordnetLemmaProposer } from "../../wordnet/load";
import { all } from "../kernel/statements";

/** WordNet's morphy, its data read on first use. */
const proposeWordNetLemma = wordnetLemmaProposer();

/**
 * Where a project's lemma proposals come from: WordNet's morphy for English
 * (`en`, `en-*`); no proposer for any other language, whose forms are kept as
 * typed and lemmatised by the coordinator's lemma table alone (docs/lemmas.md).
 */
export function lemmaProposer(language: string): LemmaProposer {
  return isEnglish(language) ? proposeWordNetLemma : proposeNothing;
}

const P = named(projects);

/**
 * Read the lemmatisers' data of the languages the database's projects are in now (WordNet's for
 * English), before the server takes requests: otherwise the first save each server process serves
 * reads it, and the saves that came in meanwhile wait (46 ms alone; the first saves after a start took
 * 120–460 ms in bench:pages at 100,000 instances, a human pace's slowest). The languages read.
 */
export function warmLemmaProposers(db: Db): string[] {
  const read: string[] = [];
  for (const { language } of all<{ language: string }>(db, `select distinct ${P.language} as language from ${P.$}`)) {
    const propose = lemmaProposer(language);
    if (propose === proposeNothing) continue;
    propose("was", "v");
    read.push(language);
  }
  return read;
}

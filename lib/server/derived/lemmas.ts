/** Where a project's lemma proposals come from (the gold's lemmatiser, the lemma review, the training's judge). */
import "server-only";
import { isEnglish } from "../../lexsub/language";
import type { LemmaProposer } from "../../lexsub/morphy";
import { proposeNothing } from "../../lexsub/normalize";
import { wordnetLemmaProposer } from "../../wordnet/load";

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

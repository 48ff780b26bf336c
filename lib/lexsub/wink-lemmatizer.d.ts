/** Types for wink-lemmatizer 3 (plain JS: WordNet's morphy over bundled data, no I/O). */
declare module "wink-lemmatizer" {
  interface WinkLemmatizer {
    noun(word: string): string;
    verb(word: string): string;
    adjective(word: string): string;
    lemmatizeNoun(word: string): string;
    lemmatizeVerb(word: string): string;
    lemmatizeAdjective(word: string): string;
  }
  const lemmatize: WinkLemmatizer;
  export default lemmatize;
}

/** The guidance shown when a project has no guidelines of its own (after SemEval-2007 Task 10, §2). */
export const DEFAULT_GUIDELINES = `Read the sentence and think of words that could replace the highlighted word without changing what the sentence means.

- Give up to three substitutes. All of them should be equally good: don't rank them, and don't add weaker ones to fill the fields.
- A phrase is fine when no single word fits. A slightly more general word is fine when it is close in meaning.
- Choose NAME when the highlighted word is part of a proper name (a person, place, title or company).
- Choose NIL when you cannot think of a good substitute.
- Tick “Part of a multiword” when the highlighted word is an integral part of a longer phrase (a phrasal verb, an idiom, a fixed expression), and type that phrase.`;

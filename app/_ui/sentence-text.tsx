/**
 * A sentence with its target marked, as annotators read it everywhere (the
 * workspace, training, the judge page): the tokeniser's spaces taken out, a
 * serif face at reading size, the target in a soft highlight; `lang` the
 * project's language, written right to left when its script is (Arabic, Hebrew…).
 */
import { textDirection } from "@/lib/lexsub/language";
import { displayText } from "./display-text";
import s from "./sentence-text.module.css";

export function SentenceText({ before, head, after, lang = "en", testId }: { before: string; head: string; after: string; lang?: string; testId?: string }) {
  return (
    <p className={s.sentence} lang={lang} dir={textDirection(lang)} data-testid={testId}>
      {displayText(before)}
      <mark data-testid={testId ? "target" : undefined}>{head}</mark>
      {displayText(after)}
    </p>
  );
}

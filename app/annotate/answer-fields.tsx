"use client";
import type { Draft } from "./draft";
import { MAX_PHRASE_LENGTH, MAX_SUBSTITUTE_LENGTH } from "./field-rules";
import { type Fields, SUB_FIELDS } from "./use-fields";
import s from "./workspace.module.css";

/** The answer's fields: up to three substitutes, or NAME / NIL, and the multiword phrase; `lang` is the project's language. */
export function AnswerFields({ draft, fields, save, lang }: { draft: Draft; fields: Fields; save: () => void; lang: string }) {
  const { errors, fieldProps } = fields;
  const isSubs = draft.kind === "substitutes";
  return (
    <>
      <fieldset className={s.fieldset} disabled={!isSubs}>
        <legend>Substitutes</legend>
        <p className="muted small" id="subs-hint">
          Up to three, one per field, all equally good. A phrase or a slightly more general word is fine.
        </p>
        <div className={s.subs}>
          {SUB_FIELDS.map((field, i) => (
            <div className={s.sub} key={field}>
              <label htmlFor={`sub${i + 1}`}>Substitute {i + 1}</label>
              <input
                ref={fields.subRefs[i]}
                type="text"
                lang={lang}
                dir="auto"
                autoComplete="off"
                autoCapitalize="none"
                maxLength={MAX_SUBSTITUTE_LENGTH}
                value={draft.subs[i]}
                onChange={(e) => fields.setSub(i, e.target.value)}
                {...fieldProps(field, `sub${i + 1}`)}
              />
              {errors[field] && (
                <div id={`sub${i + 1}-error`} className="field-error">
                  {errors[field]}
                </div>
              )}
            </div>
          ))}
        </div>
      </fieldset>

      <div className={s.kinds} role="group" aria-label="Instead of substitutes">
        <span className="muted small">or</span>
        <button
          type="button"
          className={draft.kind === "NAME" ? s.pressed : "secondary"}
          aria-pressed={draft.kind === "NAME"}
          aria-keyshortcuts="Alt+N"
          onClick={() => fields.chooseKind("NAME")}
        >
          NAME <span className={s.why}>part of a proper name</span>
        </button>
        <button
          type="button"
          className={draft.kind === "NIL" ? s.pressed : "secondary"}
          aria-pressed={draft.kind === "NIL"}
          aria-keyshortcuts="Alt+L"
          onClick={() => fields.chooseKind("NIL")}
        >
          NIL <span className={s.why}>no good substitute</span>
        </button>
      </div>

      <div className={s.multiword}>
        <label className={s.check}>
          <input
            type="checkbox"
            checked={draft.multiword}
            aria-keyshortcuts="Alt+M"
            onChange={fields.toggleMultiword}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                save();
              }
            }}
          />
          Part of a multiword
        </label>
        {draft.multiword && (
          <div className={s.phrase}>
            <label htmlFor="phrase">Multiword phrase</label>
            <input
              ref={fields.phraseRef}
              type="text"
              lang={lang}
              dir="auto"
              autoComplete="off"
              autoCapitalize="none"
              maxLength={MAX_PHRASE_LENGTH}
              value={draft.phrase}
              onChange={(e) => fields.setPhrase(e.target.value)}
              {...fieldProps("multiword", "phrase")}
            />
            {errors.multiword ? (
              <div id="phrase-error" className="field-error">
                {errors.multiword}
              </div>
            ) : (
              <div className="muted small">The whole phrase the target belongs to, e.g. a phrasal verb or an idiom. Alt+M selects the word: type the phrase over it, or End to add after it.</div>
            )}
          </div>
        )}
      </div>
    </>
  );
}

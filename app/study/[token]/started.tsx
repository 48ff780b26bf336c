/**
 * The study page after the first join (issue #38): the participant's resume code, to keep for
 * continuing on another device, and the way on to their batch. Calm and short.
 */
import { CopyCode, FocusedLink } from "@/app/annotate/completion-client";
import styles from "./study.module.css";

const ELSEWHERE = { prolific: "Opening the study from Prolific on the other device brings you back too.", mturk: "", link: "" } as const;

export function Started({ title, language, code, href, platform }: { title: string; language: string; code: string; href: string; platform: "prolific" | "mturk" | "link" }) {
  return (
    <div className={`panel ${styles.page}`} lang={language}>
      <h1>{title}</h1>
      <section aria-labelledby="started-title" className={styles.started}>
        <h2 id="started-title">You have started</h2>
        <p>
          Keep this <strong>resume code</strong> to continue on another device: open the study link there and enter it under &ldquo;Started on another device?&rdquo;.
        </p>
        <p>
          <output className={styles.code} data-testid="resume-code" aria-label="Your resume code">
            {code}
          </output>
        </p>
        <p className="small muted">
          It is yours alone: do not share it. {ELSEWHERE[platform]} On this device you need nothing: the link brings you back.
        </p>
        <div className={styles.actions}>
          <FocusedLink className="button" href={href}>
            Continue to the study
          </FocusedLink>
          <CopyCode code={code} />
        </div>
      </section>
    </div>
  );
}

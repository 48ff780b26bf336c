import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { getActor } from "@/lib/auth/session";
import { CSRF_HEADER } from "@/lib/auth/csrf";
import { RESUME_CODE_COOKIE, studyPagePath } from "@/lib/auth/sign-in-cookies";
import { readOutcome } from "@/lib/server/kernel";
import { getDb } from "@/lib/db";
import { closedSentence, type LinkParams, readParams, startedView, studyByToken } from "@/lib/server/crowd";
import { MarkdownText } from "@/app/annotate/guidelines";
import { Started } from "./started";
import { StartStudy } from "./start-study";
import styles from "./study.module.css";

export const metadata: Metadata = { title: "Study", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

/** The URL's query, one value per name (the first when repeated), at most 32 names. */
function firstValues(q: Record<string, string | string[] | undefined>): LinkParams {
  const out: LinkParams = {};
  for (const [k, v] of Object.entries(q).slice(0, 32)) {
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === "string" && s.length <= 512) out[k] = s;
  }
  return out;
}

const PLATFORM_NAMES = { prolific: "Prolific", mturk: "Mechanical Turk", link: "the link" } as const;

/**
 * A crowd study's page (issue #32): what the participant will do, the consent when the
 * coordinator set one, and the button that signs them in by the link (next-auth's "study"
 * sign-in, lib/auth/options.ts) and opens their batch in the workspace. Anyone with the link
 * sees it; the token is the credential, and a wrong one is a plain 404.
 *
 * After the start (`?started=1`), a participant who has just joined sees their resume code, to
 * keep for continuing on another device (issue #38); one arriving again (whose sign-in cleared
 * the code's cookie) goes straight on to the workspace.
 */
export default async function StudyPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await params;
  const study = studyByToken(getDb(), token);
  if (!study) notFound();
  const { outcome, ...query } = firstValues(await searchParams);
  // A start posted without JavaScript and refused: the sentence the sign-in gave (lib/auth/route.ts).
  const refused = (readOutcome(null, studyPagePath(token), outcome) as { message?: string } | null)?.message ?? null;
  if (query.started === "1") {
    const started = startedView(getDb(), await getActor(), token, (await cookies()).get(RESUME_CODE_COOKIE)?.value ?? null);
    if (started?.resumeCode) return <Started title={study.name || study.projectName} language={study.projectLanguage} code={started.resumeCode} href={`/annotate/${started.projectId}`} platform={study.platform} />;
    if (started) redirect(`/annotate/${started.projectId}`);
  }
  const read = readParams(study.platform, query);
  const closed = closedSentence(study.state, true);
  const preview = !read.ok && read.preview;
  // A plain link asks for the id on the page; a platform's link must bring its ids.
  const askId = study.platform === "link" && !query.id;
  const problem = !read.ok && !read.preview && !askId ? read.problem : null;
  const consent = study.consent.trim();
  return (
    <div className={`panel ${styles.page}`} lang={study.projectLanguage}>
      <h1>{study.name || study.projectName}</h1>
      <p className={`muted ${styles.lead}`}>A study in lexical substitution, run with lexgold{study.platform !== "link" ? ` for ${PLATFORM_NAMES[study.platform]}` : ""}.</p>
      <h2>What you will do</h2>
      <ol className={styles.steps}>
        <li>
          You will see {study.batchSize === 1 ? "one sentence" : `up to ${study.batchSize} sentences`}, one at a time, each with one word highlighted.
        </li>
        <li>For each, type up to three words or short phrases that could replace the highlighted word without changing the sentence&rsquo;s meaning (or say it is a name, or that nothing fits).</li>
        <li>The project may first show a few practice sentences with feedback.</li>
        <li>
          Finish within {study.minutes} minutes of starting: after that your remaining sentences go to others (what you answered is kept).{" "}
          {study.platform === "link" ? "The page tells you when you are done." : `At the end you are sent back to ${PLATFORM_NAMES[study.platform]}.`}
        </li>
      </ol>
      {study.guidelines.trim() && (
        <details className={styles.guidelines}>
          <summary>The project&rsquo;s guidelines</summary>
          <MarkdownText text={study.guidelines} />
        </details>
      )}
      {closed ? (
        <p role="alert" className="notice warn">
          {closed}
        </p>
      ) : preview ? (
        <p role="status" className="notice">
          This is a preview. Accept the HIT on Mechanical Turk to start.
        </p>
      ) : problem ? (
        <p role="alert" className="notice error">
          {problem}
        </p>
      ) : (
        <>
          {study.state === "paused" && <p className="notice warn">This study is paused: only those who have already started can go on.</p>}
          {consent && (
            <section aria-label="Consent">
              {/* The coordinator's text usually has a heading of its own. */}
              {!/^\s*#/.test(consent) && <h2>Consent</h2>}
              <div className={styles.consent} tabIndex={0} aria-label="Consent text">
                <MarkdownText text={consent} />
              </div>
            </section>
          )}
          <StartStudy token={token} params={query} askId={askId} withConsent={!!consent} platform={study.platform} csrfToken={(await headers()).get(CSRF_HEADER) ?? ""} refused={refused} />
        </>
      )}
    </div>
  );
}

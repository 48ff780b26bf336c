import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUserPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { AuthError, InputError, NotFoundError } from "@/lib/server/kernel";
import { nextJudgeItem } from "@/lib/server/judgement";
import { JudgeItem } from "./judge-item";

export const metadata: Metadata = { title: "Judge" };
export const dynamic = "force-dynamic";

export default async function JudgePage({ params }: { params: Promise<{ roundId: string }> }) {
  const actor = await requireUserPage();
  const roundId = Number((await params).roundId);
  let item;
  try {
    item = nextJudgeItem(getDb(), actor, roundId);
  } catch (e) {
    if (e instanceof NotFoundError || e instanceof AuthError) notFound();
    if (e instanceof InputError) {
      return (
        <>
          <h1>Round closed</h1>
          <p>{e.message} The coordinator closed it; your labels so far are kept.</p>
          <Link href="/annotate">Back to your projects</Link>
        </>
      );
    }
    throw e;
  }
  if (!item) {
    return (
      <>
        <h1>Judging done</h1>
        <p>Nothing left for you in this round. Thank you.</p>
        <Link href="/annotate">Back to your projects</Link>
      </>
    );
  }
  return (
    <>
      <h1>
        {item.roundName} <span className="small muted">— {item.remaining} sentence{item.remaining === 1 ? "" : "s"} left</span>
      </h1>
      <p className="muted">How good is each word as a substitute for the marked word in this sentence?</p>
      <JudgeItem key={item.itemId} roundId={roundId} lang={item.language} labels={item.labels} before={item.before} head={item.head} after={item.after} candidates={item.candidates} />
    </>
  );
}

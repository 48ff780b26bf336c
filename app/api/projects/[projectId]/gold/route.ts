import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { InputError, requireProject, errorResponse, streamedResponse, stringSlices, attachmentDisposition, projectIdOf } from "@/lib/server/kernel";
import { deriveDownload } from "@/lib/server/jobs";
import { goldFileSlices, goldReviewCsv, goldReviewTsv } from "@/lib/server/gold";
import { catchUpFigures } from "@/lib/server/derived";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string }> };

const FILES = {
  gold: { suffix: ".gold", type: "text/plain; charset=utf-8" },
  mwgold: { suffix: ".mwgold", type: "text/plain; charset=utf-8" },
  log: { suffix: "-gold-review.csv", type: "text/csv; charset=utf-8" },
  logtsv: { suffix: "-gold-review.tsv", type: "text/tab-separated-values; charset=utf-8" },
  problems: { suffix: "-gold-problems.tsv", type: "text/tab-separated-values; charset=utf-8" },
} as const;

/**
 * Download the project's derived gold (?file=gold) or mwgold (?file=mwgold), as
 * they would be exported now: every form as typed unless a recorded lemma
 * decision says otherwise (&proposals=1: the proposals of forms nobody decided
 * applied too, as the Gold tab lists them; &fold=1: with case folded, the
 * coordinator's choice; kept as typed otherwise), or the gold review log as CSV (?file=log)
 * or TSV (?file=logtsv): every decision, adjudications included; or every
 * problem of the derivation as TSV (?file=problems).
 * Coordinators of the project only.
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const actor = await getActor();
    const projectId = projectIdOf((await ctx.params).projectId);
    const db = getDb();
    const project = requireProject(db, actor, projectId, { coordinator: true });
    const params = new URL(req.url).searchParams;
    const which = params.get("file") ?? "gold";
    const fold = params.get("fold") === "1";
    const proposals = params.get("proposals") === "1";
    if (!Object.hasOwn(FILES, which)) {
      throw new InputError(`Unknown file "${which}": ask for gold, mwgold, log, logtsv or problems.`, { file: "One of gold, mwgold, log, logtsv, problems." });
    }
    const kind = which as keyof typeof FILES;
    let body: string | ReadableStream<Uint8Array> | Iterable<string>;
    if (kind === "log") body = goldReviewCsv(db, actor, projectId);
    else if (kind === "logtsv") body = goldReviewTsv(db, actor, projectId);
    else if ((kind === "gold" || kind === "mwgold") && !fold && !proposals) {
      // The lines kept as answers change (#39), streamed a slice at a time.
      await catchUpFigures(db, actor, projectId);
      body = goldFileSlices(db, actor, projectId, kind);
    } else {
      // Derived in the derivation process (cached until the next change), sent in slices.
      body = (await deriveDownload(db, { op: "goldFile", actor, projectId, file: kind, foldCase: fold, ...(proposals ? { applyProposals: true } : {}) }, "text")).body;
    }
    const derived = kind === "gold" || kind === "mwgold";
    const fileName =
      project.name.replace(/[^A-Za-z0-9._-]+/g, "-") + (fold && derived ? ".case-folded" : "") + (proposals && derived ? ".proposals-applied" : "") + FILES[kind].suffix;
    return streamedResponse(typeof body === "string" ? stringSlices(body) : body, {
      "Content-Type": FILES[kind].type,
      "Content-Disposition": attachmentDisposition(fileName),
    });
  } catch (e) {
    return errorResponse(e);
  }
}

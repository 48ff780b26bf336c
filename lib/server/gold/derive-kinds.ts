/**
 * Gold's derivation kinds (#43: lib/server/jobs/derive-jobs.ts takes them from this feature's index):
 * the agreement downloads, the gold and mwgold files as nobody keeps them and every problem, and the
 * adjudicated responses. Each job carries the actor; the derivation checked it, and each function
 * called here checks it again.
 */
import type { Db } from "../../../db/client";
import type { DeriveJobBase, DeriveKinds } from "../kernel/derive-kind";
import { firstProblems } from "../derived/actor-free";
import { agreementDownload } from "./agreement";
import { projectGold } from "./gold";
import { exportAdjudicatedResponses, goldProblemsTsv } from "./gold-review";

export const GOLD_DERIVE_KINDS = {
  agreementDownload: {
    run: (db: Db, job: DeriveJobBase & { query: { format?: string; table?: string } }) => agreementDownload(db, job.actor, job.projectId, job.query),
  },
  goldFile: {
    run: (db: Db, job: DeriveJobBase & { file: "gold" | "mwgold" | "problems"; foldCase: boolean; applyProposals?: boolean }): { text: string } => {
      // Every problem, from the kept figures (#39); the files as kept are streamed by the route itself, and come here only
      // as the variants nobody keeps: case folded, or with the proposals nobody decided applied (derived from every response).
      if (job.file === "problems") return { text: goldProblemsTsv(firstProblems(db, job.projectId, Number.MAX_SAFE_INTEGER)) };
      const g = projectGold(db, job.actor, job.projectId, { foldCase: job.foldCase, applyProposals: job.applyProposals === true });
      return { text: job.file === "gold" ? g.gold : g.mwgold };
    },
  },
  responsesFile: {
    run: (db: Db, job: DeriveJobBase): { text: string } => ({ text: exportAdjudicatedResponses(db, job.actor, job.projectId) }),
  },
} satisfies DeriveKinds;

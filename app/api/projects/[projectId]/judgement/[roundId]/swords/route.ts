import { swordsExport } from "@/lib/server/judgement";
import { attachment, idOf } from "../../../scoring/request";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

/** The round's labels in the SWORDS v1.1 JSON layout (coordinator of the round's project). */
export const GET = routeHandler<{ projectId: string; roundId: string }>(
  ({ params, actor, db }) => {
    const roundId = idOf(params.roundId, "round");
    const json = swordsExport(db, actor, roundId, idOf(params.projectId, "project"));
    return attachment(JSON.stringify(json, null, 2) + "\n", `judgement-${roundId}.swords.json`, "application/json");
  },
);

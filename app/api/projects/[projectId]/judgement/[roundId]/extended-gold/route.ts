import { extendedGold } from "@/lib/server/judgement";
import { attachment, idOf } from "../../../scoring/request";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

/** The project's gold plus the round's candidates judged good (coordinator of the round's project). */
export const GET = routeHandler<{ projectId: string; roundId: string }>(
  ({ params, actor, db }) => {
    const roundId = idOf(params.roundId, "round");
    return attachment(extendedGold(db, actor, roundId, idOf(params.projectId, "project")), `judgement-${roundId}.extended.gold`, "text/plain");
  },
);

import { redirect } from "next/navigation";
import { getActor } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function Home() {
  const actor = await getActor();
  if (!actor || actor.kind !== "user") redirect("/signin");
  redirect(actor.role === "coordinator" ? "/projects" : actor.role === "admin" ? "/accounts" : "/annotate");
}

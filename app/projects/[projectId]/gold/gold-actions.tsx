"use client";
import type { ReactNode } from "react";
import { type GoldActions, GoldActionsContext } from "./use-gold-form";

/** The Gold page's actions, bound to the project on the server, for the forms below (use-gold-form.ts). */
export function GoldActionsProvider({ actions, children }: { actions: GoldActions; children: ReactNode }) {
  return <GoldActionsContext.Provider value={actions}>{children}</GoldActionsContext.Provider>;
}

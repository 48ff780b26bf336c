"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Saves no longer revalidate pages (that re-rendered the workspace on every
 * save). Pages that show counts of one's answers (the project list, "all done")
 * render this: when the browser brings one back from its router cache (back /
 * forward) after answers changed in this tab, it refreshes it once.
 */
let changes = 0;
let refreshedAt = 0;

export function markAnswersChanged() {
  changes++;
}

export function RefreshIfChanged() {
  const router = useRouter();
  useEffect(() => {
    if (changes > refreshedAt) {
      refreshedAt = changes;
      router.refresh();
    }
  }, [router]);
  return null;
}

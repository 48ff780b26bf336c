"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * While figures are being computed in the background (a model's measures, α, a whole scoring, the
 * Progress charts, a model's run), the page looks again every two seconds (or `everyMs`). Without
 * JavaScript, each page says to reload.
 */
export function FollowFigures({ computing, everyMs = 2000 }: { computing: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!computing) return;
    const t = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(t);
  }, [computing, everyMs, router]);
  return null;
}

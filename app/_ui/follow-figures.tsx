"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * While figures are being computed in the background (a model's measures, α, a whole scoring, the
 * Progress charts), the page looks again every two seconds. Without JavaScript, each page says to reload.
 */
export function FollowFigures({ computing }: { computing: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!computing) return;
    const t = setInterval(() => router.refresh(), 2000);
    return () => clearInterval(t);
  }, [computing, router]);
  return null;
}

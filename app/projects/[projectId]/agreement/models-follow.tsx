"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** While the models' figures are being computed, the page looks again every two seconds. */
export function FollowMeasures({ computing }: { computing: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!computing) return;
    const t = setInterval(() => router.refresh(), 2000);
    return () => clearInterval(t);
  }, [computing, router]);
  return null;
}

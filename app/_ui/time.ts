/** How long ago, in words: "just now", "5 min ago", "3 h ago", "2 days ago". */
export function relativeTime(at: Date, now: Date): string {
  const s = Math.round((now.getTime() - at.getTime()) / 1000);
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 60) return `${d} day${d === 1 ? "" : "s"} ago`;
  const mo = Math.round(d / 30);
  return mo < 24 ? `${mo} months ago` : `${Math.round(d / 365)} years ago`;
}

/** An absolute time that reads the same for everyone: "2025-03-07 14:05 UTC". */
export function absoluteTime(at: Date): string {
  return at.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/** Seconds per item, to a sensible precision: "8.5 s", "42 s", "3 min 20 s". */
export function formatSeconds(s: number): string {
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return rest === 0 ? `${m} min` : `${m} min ${rest} s`;
}

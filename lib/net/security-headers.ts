/**
 * The headers every answer of lexgold carries, whoever sends it: next.config.ts gives them to
 * Next's answers, and the save served before Next (lib/server/annotate/save-request.ts,
 * instrumentation.ts) adds them itself. The Content-Security-Policy of pages is proxy.ts's.
 */
export const EVERY_ANSWER: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

/**
 * Never shown in a frame: every answer but a crowd study's page (/study/…), which Mechanical Turk
 * frames (its frame-ancestors are proxy.ts's).
 */
export const NOT_FRAMED: Readonly<Record<string, string>> = { "X-Frame-Options": "DENY" };

/** next.config.ts's `source` for NOT_FRAMED: every path but /study/…. */
export const NOT_FRAMED_SOURCE = "/:path((?!study/).*)";

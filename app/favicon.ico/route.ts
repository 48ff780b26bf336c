/**
 * The tab's icon: a sentence with its target marked. Served by this route rather than as Next's
 * app/favicon.ico file, which adds <link rel="icon"> to every page, and Chromium then asks for the
 * icon again on every in-app move (each Save & next). Without the link a browser asks once per page
 * load, and the day's cache keeps it.
 */
const ICON = Buffer.from("AAABAAEAICAAAAEAIAChAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAGhJREFUeNpjYMAB9GO7/lMTMxADqG0pSY6hl+VYHUFvyzEcMbIdMFCWwx0xaB1AbTDqgKGXBgatA37fyCYLU5wGRh0w6gC6O2DAc8FoQUTtMn/UAYM3DYy2igeFAwa8azYoOqcD1T0HAJ6rOVbBMUZaAAAAAElFTkSuQmCC", "base64");

export const dynamic = "force-static";

export function GET(): Response {
  return new Response(ICON, { headers: { "Content-Type": "image/x-icon", "Cache-Control": "public, max-age=86400" } });
}

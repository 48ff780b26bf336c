/**
 * Downloads' Content-Disposition, built by the `content-disposition` package
 * (RFC 6266: a plain `filename` for old clients and `filename*` in UTF-8 when the
 * name needs it), so no name — a project's, a run's, an id from the URL — can
 * put a quote, a line break or a second header into the response.
 */
import "server-only";
import contentDisposition from "content-disposition";

/** `attachment; filename="…"` (and `filename*=UTF-8''…` when needed) for this file name. */
export function attachmentDisposition(fileName: string): string {
  // Control characters have no place in a file name: dropped before the header is built.
  const clean = fileName.replace(/[\u0000-\u001f\u007f-\u009f]+/g, "").trim() || "download";
  return contentDisposition(clean, { type: "attachment" });
}

/** A notice on the Scoring page: a message, with its problems folded under it. */
export type Notice = { kind: "ok" | "error"; message: string; details?: string[] } | null;

export function NoticeBox({ notice }: { notice: NonNullable<Notice> }) {
  return (
    <div className={`notice ${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
      {notice.message}
      {notice.details && notice.details.length > 0 && (
        <details className="repairs">
          <summary>
            {notice.details.length} problem{notice.details.length === 1 ? "" : "s"}
          </summary>
          <pre>{notice.details.join("\n")}</pre>
        </details>
      )}
    </div>
  );
}

"use client";
import { useState } from "react";
import { type GoldChoice, goldForm, postDownload } from "./client";

/**
 * A download scored against the chosen gold: a plain link for the project's
 * gold (GET), a button that posts the uploaded gold files otherwise.
 */
export function DownloadLink({ href, gold, fallbackName, children }: { href: string; gold: GoldChoice; fallbackName: string; children: React.ReactNode }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = goldForm(gold);
  if (!form) {
    return (
      <a className="button secondary" href={href} download>
        {children}
      </a>
    );
  }
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(await postDownload(href, form, fallbackName));
          setBusy(false);
        }}
      >
        {children}
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

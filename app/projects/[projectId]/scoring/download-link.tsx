/** A download from a Scoring route (a plain link: every gold is stored, so a GET names it). */
export function DownloadLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a className="button secondary" href={href} download>
      {children}
    </a>
  );
}

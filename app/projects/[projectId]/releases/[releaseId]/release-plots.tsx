/**
 * The plots a release carries (agreement/*.svg), shown as the release froze them: each an image
 * from the release's own file (so what the page shows is what the archive holds), its title as the
 * caption and its description as the image's text, with a link to open it alone.
 */
import type { ReleasePlot } from "@/lib/server/releases";
import styles from "../releases.module.css";

export function ReleasePlots({ plots, fileHref }: { plots: ReleasePlot[]; fileHref: (path: string) => string }) {
  if (plots.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="plots-h">
      <h2 id="plots-h">Plots</h2>
      <p className="small muted">As drawn when the release was made, from its own figures; annotators are named as the release names them.</p>
      <div className={styles.plots}>
        {plots.map((p) => (
          <figure key={p.path} className={styles.plot}>
            <img src={fileHref(p.path)} alt={p.description ? `${p.title}. ${p.description}` : p.title} loading="lazy" />
            <figcaption className="small">
              {p.title}{" "}
              <a href={fileHref(p.path)}>
                <code>{p.path}</code>
              </a>
            </figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}

/**
 * The Agreement tab's Models chart (issue #42, once models landed in #41): each model's pairwise
 * agreement with the pool of people's answers beside the people's own — every person a dot on one
 * row (their pairwise agreement with the others), their mean marked, and each model a row of its
 * own on the same scale. Data in, Chart out (render.ts).
 */
import * as Plot from "@observablehq/plot";
import { ACCENT, type Chart, INK, MUTED, pct, renderSvg } from "./render";

export interface PersonAgreement {
  annotator: string;
  pairwise: number | null;
}

export interface ModelAgreement {
  name: string;
  /** Its pairwise agreement with the people's answers (null before it shares an item with them). */
  withPool: number | null;
}

/** Null when neither a model nor a person has a figure yet. */
export function modelAgreementChart(people: readonly PersonAgreement[], peopleMean: number | null, models: readonly ModelAgreement[], id = "model-agreement"): Chart | null {
  const persons = people.filter((p) => p.pairwise !== null);
  const scored = models.filter((m) => m.withPool !== null);
  if (scored.length === 0 || persons.length === 0) return null;
  const peopleRow = `people (${persons.length})`;
  const rows = [peopleRow, ...scored.map((m) => m.name)];
  const personDots = persons.map((p) => ({ row: peopleRow, who: p.annotator, value: 100 * p.pairwise! }));
  const modelDots = scored.map((m) => ({ row: m.name, who: m.name, value: 100 * m.withPool! }));
  const low = persons.reduce((a, b) => (a.pairwise! <= b.pairwise! ? a : b));
  const high = persons.reduce((a, b) => (a.pairwise! >= b.pairwise! ? a : b));
  const title = `Pairwise agreement: ${scored.length === 1 ? "the model" : `${scored.length} models`} beside ${persons.length} ${persons.length === 1 ? "person" : "people"}`;
  const description =
    `Each person's pairwise agreement with the other people is a dot on the first row, from ${pct(low.pairwise)} (${low.annotator}) to ${pct(high.pairwise)} (${high.annotator})` +
    (peopleMean !== null ? `, their mean over all pairs ${pct(peopleMean)} marked by a dashed line` : "") +
    `; each model's agreement with the people's answers is a row of its own: ${scored.map((m) => `${m.name} ${pct(m.withPool)}`).join("; ")}.`;
  const top = Math.max(...personDots.map((d) => d.value), ...modelDots.map((d) => d.value));
  const longest = Math.max(...rows.map((r) => r.length));
  type Dot = (typeof personDots)[number];
  const { svg, narrow } = renderSvg(id, title, description, {
    width: 640,
    height: 70 + rows.length * 32,
    marginLeft: Math.min(220, longest * 7 + 16),
    marginRight: 20,
    marginTop: 26,
    marginBottom: 40,
    x: { domain: [0, Math.min(100, Math.max(10, Math.ceil(top / 10) * 10))], label: "pairwise agreement (%)", labelAnchor: "center", labelArrow: "none", grid: true, ticks: 5 },
    y: { domain: rows, label: null },
    marks: [
      Plot.frame({ stroke: MUTED, strokeOpacity: 0.3 }),
      ...(peopleMean !== null
        ? [
            Plot.ruleX([100 * peopleMean], { stroke: INK, strokeDasharray: "4,3" }),
            Plot.text([100 * peopleMean], { x: (d: number) => d, frameAnchor: "top", dy: -14, text: () => `people's mean ${pct(peopleMean)}`, fill: INK }),
          ]
        : []),
      Plot.dot(personDots, { y: "row", x: "value", r: 3.5, fill: MUTED, fillOpacity: 0.55, title: (d: Dot) => `${d.who}: ${d.value.toFixed(1)} %` }),
      Plot.dot(modelDots, { y: "row", x: "value", r: 5.5, fill: ACCENT, title: (d: Dot) => `${d.who}: ${d.value.toFixed(1)} %` }),
      Plot.text(modelDots, { y: "row", x: "value", text: (d: Dot) => `${d.value.toFixed(1)} %`, dx: 10, textAnchor: "start", fill: INK }),
    ],
  });
  return {
    id,
    fileName: "model-agreement.svg",
    title,
    description,
    svg,
    narrow,
    table: {
      columns: ["who", "kind", "pairwise agreement %"],
      rows: [...modelDots.map((d) => [d.who, "model", d.value.toFixed(1)]), ...personDots.map((d) => [d.who, "person", d.value.toFixed(1)])],
    },
  };
}

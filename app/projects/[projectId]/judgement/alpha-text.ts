/** Krippendorff's α as the Judgement page says it: the figures, or why there are none (lib/lexsub/judgement.ts). */
export function alphaText(alpha: { nominal: number | null; ordinal: number | null }, judgesWithLabels: number): string {
  const f = (a: number) => a.toFixed(3);
  if (alpha.nominal !== null && alpha.ordinal !== null) return `nominal ${f(alpha.nominal)}, ordinal ${f(alpha.ordinal)}`;
  const why =
    judgesWithLabels < 2
      ? `${judgesWithLabels === 0 ? "no judge has" : "only one judge has"} labelled yet, and α compares two judges' labels of the same candidate`
      : "no candidate has two labels yet, or all the labels are the same, so there is no disagreement to measure";
  if (alpha.nominal === null && alpha.ordinal === null) return `not defined yet: ${why}`;
  return `nominal ${alpha.nominal === null ? "—" : f(alpha.nominal)}, ordinal ${alpha.ordinal === null ? "—" : f(alpha.ordinal)} (— : ${why})`;
}

/** A filter's choice of lexelt: "All lexelts" (the empty value), then each item. */
export function LexeltSelect({ id, lexelts, value }: { id: string; lexelts: readonly string[]; value: string | undefined }) {
  return (
    <select id={id} name="lexelt" defaultValue={value}>
      <option value="">All lexelts</option>
      {lexelts.map((l) => (
        <option key={l} value={l}>
          {l}
        </option>
      ))}
    </select>
  );
}

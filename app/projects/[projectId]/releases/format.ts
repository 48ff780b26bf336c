/** Sizes and checksums as the Releases pages show them. */
export function bytesText(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

/** The first 12 hex digits (the whole in the title attribute). */
export const shortSha = (hex: string) => `${hex.slice(0, 12)}…`;

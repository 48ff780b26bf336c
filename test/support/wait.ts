/**
 * Waiting for another thread or process in tests: poll a condition until it holds. The overall
 * timeout only catches a hang (it is generous, so a busy machine never reaches it); nothing here
 * assumes the other side is done after a fixed time.
 */
export async function until(condition: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

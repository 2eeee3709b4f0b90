/**
 * Retries `assertion` every 50 ms until it holds or `timeoutMs` has passed, then rethrows its last failure:
 * for effects that arrive through a cache or an event (a gateway's cached token check, say).
 */
export async function eventually(assertion: () => Promise<void>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

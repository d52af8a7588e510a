/**
 * How long a test waits for something a loaded machine is slow to do (a process to start, a
 * queue to drain). Generous on purpose: a wait ends when its condition holds, so a quiet machine
 * never pays it, and a busy one (CI beside other work) must not fail a correct answer.
 * INKWELL_TEST_DEADLINE_MS scales it by hand.
 */
export const SLOW_DEADLINE_MS = Number(process.env.INKWELL_TEST_DEADLINE_MS ?? 180_000);

/** A test timeout for a test that waits on up to `waits` slow things in a row. */
export const slowTestTimeout = (waits = 1): number => SLOW_DEADLINE_MS * waits + 30_000;

/**
 * Polls `check` until it returns a value (anything but undefined or false), or throws once `ms`
 * has passed, naming what it waited for and the last error `check` threw.
 */
export async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = SLOW_DEADLINE_MS, everyMs = 25): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

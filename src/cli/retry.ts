import { CliError } from "./errors.js";

/**
 * For requests that are safe to resend (a batch of hits carries its ids): rides out a server
 * restart or a 5xx/429 blip, backing off 1, 2, 4, 8 s; any other error, or a fifth failure, is thrown.
 */
export async function sendWithRetry<T>(send: () => Promise<T>, sleep: (ms: number) => Promise<void>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const transient = error instanceof CliError && /^(Cannot reach|5\d\d:|429:)/.test(error.message);
      if (!transient || attempt >= 5) throw error;
      await sleep(500 * 2 ** attempt);
    }
  }
}

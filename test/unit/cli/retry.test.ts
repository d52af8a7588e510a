import { describe, expect, it } from "vitest";
import { CliError } from "../../../src/cli/errors.js";
import { sendWithRetry } from "../../../src/cli/retry.js";

/** A send that fails with each given error in turn, then answers "ok". */
function failing(...errors: Error[]) {
  let calls = 0;
  const send = async () => {
    const error = errors[calls++];
    if (error) throw error;
    return "ok";
  };
  return { send, calls: () => calls };
}

function recordSleeps() {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
}

describe("sendWithRetry", () => {
  it.each(["Cannot reach Inkwell at http://x (ECONNREFUSED).", "503: Service Unavailable", "429: Too many requests"])(
    "rides out a transient failure: %s",
    async (message) => {
      const { send, calls } = failing(new CliError(message), new CliError(message));
      const { sleeps, sleep } = recordSleeps();
      await expect(sendWithRetry(send, sleep)).resolves.toBe("ok");
      expect(calls()).toBe(3);
      expect(sleeps).toEqual([1000, 2000]);
    },
  );

  it("gives up after the fifth attempt, with the last error", async () => {
    const errors = [1, 2, 3, 4, 5].map((n) => new CliError(`502: attempt ${n}`));
    const { send, calls } = failing(...errors);
    const { sleeps, sleep } = recordSleeps();
    await expect(sendWithRetry(send, sleep)).rejects.toBe(errors[4]);
    expect(calls()).toBe(5);
    expect(sleeps).toEqual([1000, 2000, 4000, 8000]);
  });

  it.each([new CliError("400: Invalid request body"), new CliError("401: Missing or invalid API key"), new TypeError("a bug")])(
    "does not resend after an answer that would not change: %s",
    async (error) => {
      const { send, calls } = failing(error);
      const { sleeps, sleep } = recordSleeps();
      await expect(sendWithRetry(send, sleep)).rejects.toBe(error);
      expect(calls()).toBe(1);
      expect(sleeps).toEqual([]);
    },
  );
});

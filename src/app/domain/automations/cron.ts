import { Cron } from "croner";
import { InvalidInputError } from "../errors.js";

/** The first time after `after` that a five-field cron expression names, in UTC; InvalidInputError naming `cron` when it names none or cannot be read. */
export function nextFiring(expression: string, after: Date): Date {
  let next: Date | null;
  try {
    next = new Cron(expression.trim(), { timezone: "UTC", paused: true }).nextRun(after);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^CronPattern: /, "") : String(error);
    throw new InvalidInputError(`cron: ${why}`, [{ field: "cron", message: why }]);
  }
  if (!next) throw new InvalidInputError("cron: names no future time", [{ field: "cron", message: "names no future time" }]);
  return next;
}

import { Cron } from "croner";
import { InvalidInputError } from "../errors.js";

/** The first time after `after` that a five-field cron expression names, in UTC; InvalidInputError naming `cron` when it names none or cannot be read. */
export function nextFiring(expression: string, after: Date): Date {
  const mistake = fieldMistake(expression.trim());
  if (mistake) throw new InvalidInputError(`cron: ${mistake}`, [{ field: "cron", message: mistake }]);
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

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
] as const;

/**
 * What is wrong with the expression as the user wrote it: the number of fields, a number out of
 * its field's range, a step of 0. Null when those are fine (croner judges the rest).
 */
function fieldMistake(expression: string): string | null {
  const fields = expression.split(/\s+/).filter(Boolean);
  if (fields.length !== FIELDS.length) return `needs five fields (minute hour day-of-month month day-of-week, e.g. '0 6 * * 1'), but '${expression}' has ${fields.length}`;
  for (const [index, field] of fields.entries()) {
    const { name, min, max } = FIELDS[index] as (typeof FIELDS)[number];
    for (const match of field.matchAll(/(\/?)(\d+)/g)) {
      const value = Number(match[2]);
      if (match[1] === "/") {
        if (value < 1) return `the ${name} field '${field}' steps by 0: a step must be at least 1`;
      } else if (value < min || value > max) {
        return `the ${name} field is ${value} in '${expression}', but it must be ${min}–${max}`;
      }
    }
  }
  return null;
}

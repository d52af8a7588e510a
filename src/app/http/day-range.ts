import { parseUtcDay } from "../../shared/api-schemas.js";
import { isoToDay } from "../analytics/days.js";
import type { DayRange } from "../analytics/reports.js";

/** A report query's validated dates as whole UTC days (null: open). */
export function dayRange(query: { dateFrom?: string | undefined; dateTo?: string | undefined }): DayRange {
  const day = (value: string | undefined) => (value === undefined ? null : isoToDay(parseUtcDay(value) as string));
  return { from: day(query.dateFrom), to: day(query.dateTo) };
}

import { parseUtcDay } from "../../shared/utc-day.js";
import { dayToIso, isoToDay } from "../../shared/epoch-days.js";
import type { DayRange } from "../../shared/epoch-days.js";
import { csvFilename } from "../http-kit/csv.js";

/** A report query's validated dates as whole UTC days (null: open). */
export function dayRange(query: { dateFrom?: string | undefined; dateTo?: string | undefined }): DayRange {
  const day = (value: string | undefined) => (value === undefined ? null : isoToDay(parseUtcDay(value) as string));
  return { from: day(query.dateFrom), to: day(query.dateTo) };
}

/** A report's CSV file name: `<report>-<projectId>-<dateFrom or start>-<dateTo or end>.csv` (http-kit/csv.ts). */
export function rangeCsvFilename(report: string, projectId: string, query: { dateFrom?: string | undefined; dateTo?: string | undefined }): string {
  const { from, to } = dayRange(query);
  return csvFilename([report, projectId, from === null ? "start" : dayToIso(from), to === null ? "end" : dayToIso(to)]);
}

import { parseUtcDay } from "../shared/utc-day.js";
import { CliError } from "./errors.js";

export interface CliRange {
  /** The API's parameters: dateFrom inclusive, dateTo exclusive. */
  dateFrom?: string;
  dateTo?: string;
  /** The range in words, first and last day included, as the CLI prints it. */
  label: string;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const previousDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

function day(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseUtcDay(value);
  if (!parsed) throw new CliError(`${flag} must be a date, YYYY-MM-DD (or an ISO 8601 date-time; its UTC day counts)`, 2);
  return parsed;
}

/**
 * The report range from `--from` (first day, included) and either `--to` (the day after the last,
 * excluded, as the API's dateTo) or `--through` (the last day, included, as the dashboard's "to").
 */
export function cliRange(values: { from?: string | undefined; to?: string | undefined; through?: string | undefined }): CliRange {
  if (values.to !== undefined && values.through !== undefined) throw new CliError("Give --to (excluded) or --through (included), not both", 2);
  const from = day(values.from, "--from");
  const endFlag = values.through !== undefined ? "--through" : "--to";
  const last = values.through !== undefined ? day(values.through, "--through") : mapDefined(day(values.to, "--to"), previousDay);
  const dateTo = values.through !== undefined ? mapDefined(last, nextDay) : day(values.to, "--to");
  // Refused exactly where the API refuses (dateFrom after dateTo); an empty range (dateFrom = dateTo)
  // is answered as the API answers it, with empty reports, and the range line says why it is empty.
  if (from !== undefined && dateTo !== undefined && from > dateTo) {
    const end = values.through ?? values.to;
    throw new CliError(`--from ${values.from} is after ${endFlag} ${end}${endFlag === "--to" ? " (excluded)" : ""}: no day is in that range`, 2);
  }
  const range = { ...(from ? { dateFrom: from } : {}), ...(dateTo ? { dateTo } : {}) };
  if (from !== undefined && from === dateTo) {
    const why = values.through !== undefined ? `--through ${last} is the day before --from ${from}` : `--to ${dateTo} is excluded; --through ${from} is that one day`;
    return { ...range, label: `Range: no day (${why})` };
  }
  const label = from && last ? `${from} through ${last}` : from ? `${from} onwards` : last ? `every day through ${last}` : "all days";
  return { ...range, label: `Range: ${label} (UTC days, first and last included)` };
}

const mapDefined = <T, U>(value: T | undefined, map: (value: T) => U): U | undefined => (value === undefined ? undefined : map(value));

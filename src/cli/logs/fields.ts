import { isIP } from "node:net";

/**
 * What every log format is read into, and the field readers the formats share: each returns the
 * value or the reason the line is skipped.
 */

export interface ImportHit {
  timestamp: string;
  path: string;
  ip: string;
  userAgent: string;
  accept?: string;
  referrer?: string;
  /** Set only for a 4xx/5xx answer (the server reports AI agents' failed fetches). */
  status?: number;
}

export type SkipReason = "malformed" | "not-a-page-view" | "method" | "status";
export type ParsedLine = { ok: true; hit: ImportHit } | { ok: false; reason: SkipReason; detail: string };

export type Skipped = Extract<ParsedLine, { ok: false }>;

/** A format's reading of one line: the request, why it is skipped, or null for a line that is no record (a W3C `#Fields:` directive). */
export type RecordReader = (line: string) => LoggedRequest | Skipped | null;
/** What the importer calls per line: the hit, the reason it is skipped, or null for a directive (counted in no reason, like a blank line). */
export type LineParser = (line: string) => ParsedLine | null;

/** One request as a log format records it; the page-view rules run on this, the same for every format. */
export interface LoggedRequest {
  ip: string;
  timestamp: string;
  method: string;
  target: string;
  status: number | undefined;
  userAgent: string;
  referrer: string | undefined;
  accept: string | undefined;
}

export function skip(reason: SkipReason, detail: string): Skipped {
  return { ok: false, reason, detail };
}

type Unskipped<T> = { [K in keyof T]: Exclude<T[K], Skipped> };

/** The fields, or the first of them (in the order given) that could not be read. */
export function firstSkipOr<T extends Record<string, unknown>>(fields: T): Unskipped<T> | Skipped {
  const skipped = Object.values(fields).find(isSkipped);
  return skipped ?? (fields as Unskipped<T>);
}

function isSkipped(value: unknown): value is Skipped {
  return isRecord(value) && value.ok === false;
}

export function readIp(value: unknown, field: string): string | Skipped {
  if (typeof value !== "string" || value === "") return skip("malformed", `no ${field}`);
  return isIP(value) !== 0 ? value : skip("malformed", `${field} ${quote(value)} is not an IP address`);
}

export function readString(value: unknown, field: string): string | Skipped {
  return typeof value === "string" && value !== "" ? value : skip("malformed", `no ${field}`);
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A header-like value where logs write `-` for "none" (nginx, Apache, CloudFront). */
export function optionalLogged(value: unknown): string | undefined {
  const text = optionalString(value);
  return text === "-" ? undefined : text;
}

/**
 * The first of `keys` the record has (not null): NDJSON exports without a fixed schema spell the
 * same field several ways. Returns the key too, so a skip detail names the field the line has.
 */
export function pick(record: Record<string, unknown>, keys: readonly string[]): { key: string; value: unknown } {
  for (const key of keys) {
    const value = record[key];
    if (value !== undefined && value !== null) return { key, value };
  }
  return { key: keys[0] ?? "", value: undefined };
}

export function readStatus(value: unknown, field: string): number | undefined | Skipped {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\d{3}$/.test(value)) return Number(value);
  return skip("malformed", `${field} ${quote(value)} is not an HTTP status`);
}

export function isoFromMs(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function parseJsonObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value for a skip detail, cut short: the CLI prints these, and a garbage line can be long. */
export function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

import type { IncomingMessage } from "node:http";
import type { Reply } from "./router.js";

/**
 * CSV exports of reports (docs/analytics/reports.md): RFC 4180 (quoted only when needed, CRLF line ends),
 * UTF-8 without a byte order mark, a header row, one line per row and nothing else (no totals line),
 * and safe to open in a spreadsheet. Rows stream from an async iterable (a report's batched
 * all-rows query) through http/request-handler.ts, which writes them as the client takes them.
 */

/** What a cell shows: text, a number, or nothing (an empty cell). */
export type CsvValue = string | number | boolean | null | undefined;

/** A report's columns, in order: each header and how a row gives that cell. */
export type CsvColumns<Row> = readonly (readonly [header: string, cell: (row: Row) => CsvValue])[];

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";

/** About this many characters go out per write: rows are joined, not written one by one. */
const CHUNK_CHARS = 64 * 1024;

/** What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"): such text gets a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell. Text that starts like a formula (`=`, `+`, `-`, `@`, tab, CR) is prefixed with `'` so
 * that paths and agent names, which come from the internet, are never run as formulas; numbers
 * are written as they are. Quoted when it holds a quote, comma, CR or LF.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line: the cells, comma-separated, ended by CRLF. */
export const csvLine = (values: readonly CsvValue[]): string => `${values.map(csvCell).join(",")}\r\n`;

/** The header line, then a line per row, in chunks of about `chunkChars` characters (the first holds the header and the first rows). */
export async function* csvChunks<Row>(rows: AsyncIterable<Row> | Iterable<Row>, columns: CsvColumns<Row>, chunkChars = CHUNK_CHARS): AsyncGenerator<string> {
  let chunk = csvLine(columns.map(([header]) => header));
  for await (const row of rows) {
    chunk += csvLine(columns.map(([, cell]) => cell(row)));
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * Whether a report answers CSV: `output` decides when the query gives it; otherwise the Accept
 * header, when it names `text/csv` with a higher preference than `application/json` (wildcards
 * choose nothing: JSON stays the default).
 */
export function wantsCsv(req: IncomingMessage, output: "json" | "csv" | undefined): boolean {
  if (output !== undefined) return output === "csv";
  const accept = req.headers.accept;
  if (!accept) return false;
  let csv = 0;
  let json = 0;
  for (const range of accept.split(",")) {
    const [type = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!(weight >= 0 && weight <= 1)) continue;
    if (type === "text/csv") csv = Math.max(csv, weight);
    else if (type === "application/json") json = Math.max(json, weight);
  }
  return csv > json;
}

export interface Page {
  limit: number;
  offset: number;
}

/** The page an export was asked for: only when the request names `limit` or `offset` itself; otherwise null, every row. */
export function requestedPage(url: URL, query: Page): Page | null {
  return url.searchParams.has("limit") || url.searchParams.has("offset") ? { limit: query.limit, offset: query.offset } : null;
}

/** A file name of the given parts, joined by `-`: anything but letters, digits, `.` and `_` becomes `-`. */
export const csvFilename = (parts: readonly string[]): string => `${parts.map((part) => part.replace(/[^A-Za-z0-9._]+/g, "-")).join("-")}.csv`;

/**
 * The reply of a CSV export, in one call: `rows` in the report's order (every row, or the `page`
 * of them), `columns` for the cells, downloaded as `filename`. Nothing is read before the
 * request handler asks for the first chunk, so an error in the first batch is still a JSON error.
 */
export function csvReply<Row>(
  rows: AsyncIterable<Row> | Iterable<Row>,
  columns: CsvColumns<Row>,
  options: { filename: string; page?: Page | null; headers?: Record<string, string> },
): Reply {
  return {
    status: 200,
    stream: { contentType: CSV_CONTENT_TYPE, chunks: csvChunks(options.page ? pageOf(rows, options.page) : rows, columns) },
    headers: { "Content-Disposition": `attachment; filename="${options.filename}"`, ...options.headers },
  };
}

/** The rows of one page; the source is closed once the page is complete. */
async function* pageOf<Row>(rows: AsyncIterable<Row> | Iterable<Row>, page: Page): AsyncGenerator<Row> {
  if (page.limit <= 0) return;
  let index = 0;
  for await (const row of rows) {
    if (index >= page.offset) yield row;
    if (++index >= page.offset + page.limit) return;
  }
}

/** The header line of `columns`, without its CRLF (the OpenAPI document states it). */
export const csvHeader = (columns: CsvColumns<never>): string => columns.map(([header]) => header).join(",");

/** Columns that are a row's own fields, each headed by its name. */
export const csvFields = <Row>(...names: (keyof Row & string)[]): CsvColumns<Row> => names.map((name) => [name, (row: Row) => row[name] as CsvValue] as const);

/** With compare=previous: `columns` followed by a `previous_<name>` column for each named field of the row's `previous`. */
export const withPreviousFields = <Row extends { previous?: Record<Name, CsvValue> | undefined }, Name extends string>(columns: CsvColumns<Row>, ...names: Name[]): CsvColumns<Row> => [
  ...columns,
  ...names.map((name) => [`previous_${name}`, (row: Row) => row.previous?.[name]] as const),
];

/** The header line of a report whose compared answer adds columns, as a pattern for the OpenAPI document: the compared columns optional. */
export const comparedHeaderPattern = <Row>(columns: CsvColumns<Row>, compared: CsvColumns<Row>): string => `${csvHeader(columns)}(,${csvHeader(compared.slice(columns.length))})?`;

import { createHash } from "node:crypto";
import { skip, firstSkipOr, readIp, readString, optionalString, readStatus, isoFromMs, parseJsonObject, isRecord, quote, type ParsedLine, type Skipped, type LoggedRequest } from "./log-fields.js";

export const LOG_FORMATS = ["combined", "vercel", "cloudflare"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const READERS: Record<LogFormat, (line: string) => LoggedRequest | Skipped> = {
  combined: readCombined,
  vercel: readVercel,
  cloudflare: readCloudflare,
};

/**
 * Parses one line (no trailing newline) of the given format. Blank lines are the caller's business (it skips them).
 * The first failed check is the reason, in this order: a line that records no visitor request (not-a-page-view), unreadable
 * fields (malformed), method, request target (malformed), assets and framework paths (not-a-page-view), status.
 * So a failed asset request counts as not-a-page-view, and `status` counts page requests answered with a redirect.
 */
export function parseLogLine(format: LogFormat, line: string): ParsedLine {
  const request = READERS[format](line);
  return "ok" in request ? request : pageView(request);
}

/** Stable idempotency id of a log line: the same line at the same occurrence gives the same id on every import. */
export function lineHitId(line: string, occurrence: number): string {
  return createHash("sha256").update(`${occurrence}\n${line}`).digest().subarray(0, 16).toString("base64url");
}

// ---------------------------------------------------------------------------------------------------------------------
// Page-view rules

const PAGE_METHODS = new Set(["GET", "HEAD"]);
const NON_PAGE_PREFIXES = ["/_next/", "/_vercel/", "/cdn-cgi/", "/.well-known/"];
// Feeds and sitemaps (xml) and downloads (pdf, zip) are fetched, not read as docs pages; llms.txt files are read by AI agents.
const ASSET_EXTENSIONS = new Set(
  "css js mjs map json xml png jpg jpeg gif svg webp avif ico woff woff2 ttf otf eot mp4 webm mp3 pdf zip wasm txt".split(" "),
);
const TEXT_PAGES = new Set(["llms.txt", "llms-full.txt"]);
// Absolute-form request targets (`GET http://host/path`), as proxies send them.
const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

function pageView(request: LoggedRequest): ParsedLine {
  if (!PAGE_METHODS.has(request.method)) return skip("method", `${request.method} is not GET or HEAD`);
  const path = requestPath(request.target);
  if (path === undefined) return skip("malformed", `request target ${quote(request.target)} is not a path`);
  const nonPage = nonPageDetail(path);
  if (nonPage !== undefined) return skip("not-a-page-view", nonPage);
  if (!isPageStatus(request.status)) return skip("status", `status ${request.status} is not a page answer (2xx, 304, 4xx or 5xx)`);
  const { timestamp, ip, userAgent, referrer, accept, status } = request;
  return { ok: true, hit: { timestamp, path, ip, userAgent, ...(accept ? { accept } : {}), ...(referrer ? { referrer } : {}), ...(status !== undefined && status >= 400 ? { status } : {}) } };
}

/** The path of a request target, without query and fragment, percent-encoding untouched; undefined when it is no path. */
function requestPath(target: string): string | undefined {
  const origin = ABSOLUTE_FORM.exec(target)?.[0];
  const path = target.slice(origin?.length ?? 0).split(/[?#]/, 1)[0] ?? "";
  if (origin !== undefined) return path === "" ? "/" : path;
  return path.startsWith("/") ? path : undefined;
}

function nonPageDetail(path: string): string | undefined {
  const prefix = NON_PAGE_PREFIXES.find((p) => path.startsWith(p));
  if (prefix !== undefined) return `${path} is under ${prefix}`;
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot + 1) : "";
  if (ASSET_EXTENSIONS.has(extension) && !TEXT_PAGES.has(name)) return `${path} is a static asset (.${extension})`;
  return undefined;
}

/**
 * A page answer: 2xx, 304, or a 4xx/5xx error (sent with its status: the server reports AI agents'
 * failed fetches and counts no visit for them). A request without a status (a field the export
 * left out) is judged on the rest alone.
 */
function isPageStatus(status: number | undefined): boolean {
  return status === undefined || (status >= 200 && status <= 299) || status === 304 || (status >= 400 && status <= 599);
}

// ---------------------------------------------------------------------------------------------------------------------
// combined / common log format: %h %l %u [%t] "%r" %>s %b ["%{Referer}i" "%{User-agent}i"]

const QUOTED = String.raw`"((?:[^"\\]|\\.)*)"`;
// Either ends after %b (common) or goes on with referer and user agent (combined), which may be followed by more fields.
const COMBINED = new RegExp(String.raw`^(\S+) \S+ \S+ \[([^\]]*)\] ${QUOTED} (\S+) \S+(?:\s*$| ${QUOTED} ${QUOTED})`);
const CLF_TIME = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})$/;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const REQUEST_LINE = /^([A-Z]+) (\S+)(?: HTTP\/\d(?:\.\d)?)?$/;
// Apache escapes `"` and `\` with a backslash; both servers write other bytes as \xHH, which together may spell UTF-8.
const LOG_ESCAPE = /((?:\\x[\da-fA-F]{2})+)|\\(.)/g;

function readCombined(line: string): LoggedRequest | Skipped {
  const match = COMBINED.exec(line);
  if (match === null) return skip("malformed", "not in combined or common log format");
  const [, host = "", time = "", request = "", status = "", referer, agent] = match;
  const fields = firstSkipOr({
    ip: readIp(host, "client address"),
    timestamp: readClfTime(time),
    request: readRequestLine(unescapeLogField(request)),
    status: readStatus(status, "status"),
  });
  if ("ok" in fields) return fields;
  return {
    ...fields.request,
    ip: fields.ip,
    timestamp: fields.timestamp,
    status: fields.status,
    userAgent: dashAsMissing(agent) ?? "",
    referrer: dashAsMissing(referer),
    accept: undefined,
  };
}

function readClfTime(time: string): string | Skipped {
  const [, day, month, year, clock, offsetHours, offsetMinutes] = CLF_TIME.exec(time) ?? [];
  const monthNumber = String(MONTHS.indexOf(month ?? "") + 1).padStart(2, "0");
  const timestamp =
    monthNumber === "00" ? undefined : isoFromMs(Date.parse(`${year}-${monthNumber}-${day}T${clock}${offsetHours}:${offsetMinutes}`));
  return timestamp ?? skip("malformed", `time ${quote(time)} is not dd/Mon/yyyy:HH:MM:SS ±hhmm`);
}

function readRequestLine(request: string): { method: string; target: string } | Skipped {
  if (request === "-") return skip("malformed", "no request line (-)");
  const [, method, target] = REQUEST_LINE.exec(request) ?? [];
  if (method === undefined || target === undefined) return skip("malformed", `request line ${quote(request)} is not METHOD TARGET HTTP/x.y`);
  return { method, target };
}

function unescapeLogField(field: string): string {
  return field.replace(LOG_ESCAPE, (_, hexRun: string | undefined, char: string | undefined) =>
    hexRun === undefined ? (char ?? "") : Buffer.from(hexRun.replaceAll("\\x", ""), "hex").toString("utf8"),
  );
}

function dashAsMissing(field: string | undefined): string | undefined {
  const value = field === undefined ? undefined : unescapeLogField(field);
  return value === "-" || value === "" ? undefined : value;
}

// ---------------------------------------------------------------------------------------------------------------------
// Vercel log drain NDJSON: requests carry a `proxy` object

// A function's console output repeats its request's proxy object; the request has an entry of its own.
const FUNCTION_OUTPUT_TYPES = new Set(["stdout", "stderr"]);

function readVercel(line: string): LoggedRequest | Skipped {
  const entry = parseJsonObject(line);
  if (entry === undefined) return skip("malformed", "not a JSON object");
  if (typeof entry.type === "string" && FUNCTION_OUTPUT_TYPES.has(entry.type)) return skip("not-a-page-view", `${vercelKind(entry)} line, not a request`);
  const proxy = entry.proxy;
  if (!isRecord(proxy)) return skip("not-a-page-view", `${vercelKind(entry)} line without a proxy object`);
  return firstSkipOr({
    ip: readIp(proxy.clientIp, "proxy.clientIp"),
    timestamp: readEpochMs(proxy.timestamp, "proxy.timestamp"),
    method: readString(proxy.method, "proxy.method"),
    target: readString(proxy.path, "proxy.path"),
    status: readStatus(proxy.statusCode, "proxy.statusCode"),
    userAgent: readVercelUserAgent(proxy.userAgent),
    referrer: optionalString(proxy.referer),
    accept: undefined,
  });
}

/** "lambda stdout", "build", ...: what kind of line the CLI reports as skipped. */
function vercelKind(entry: Record<string, unknown>): string {
  return [entry.source, entry.type].filter((part) => typeof part === "string").join(" ") || "log";
}

/** Vercel sends an array of every User-Agent header of the request; like nginx, use the first. */
function readVercelUserAgent(value: unknown): string {
  return optionalString(Array.isArray(value) ? value[0] : value) ?? "";
}

function readEpochMs(value: unknown, field: string): string | Skipped {
  const timestamp = typeof value === "number" ? isoFromMs(value) : undefined;
  return timestamp ?? skip("malformed", `${field} ${quote(value)} is not epoch milliseconds`);
}

// ---------------------------------------------------------------------------------------------------------------------
// Cloudflare Logpush http_requests NDJSON

const RFC3339_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

function readCloudflare(line: string): LoggedRequest | Skipped {
  const record = parseJsonObject(line);
  if (record === undefined) return skip("malformed", "not a JSON object");
  // Worker subrequests, purges, health checks and the like are Cloudflare's own requests, not visitors.
  const source = record.ClientRequestSource;
  if (typeof source === "string" && source !== "eyeball") return skip("not-a-page-view", `ClientRequestSource is ${source}`);
  const headers = isRecord(record.RequestHeaders) ? record.RequestHeaders : {};
  return firstSkipOr({
    ip: readIp(record.ClientIP, "ClientIP"),
    timestamp: readLogpushTimestamp(record.EdgeStartTimestamp),
    method: readString(record.ClientRequestMethod, "ClientRequestMethod"),
    target: readString(record.ClientRequestURI ?? record.ClientRequestPath, "ClientRequestURI"),
    // OriginResponseStatus is 0 when the edge answered without the origin, which says nothing about the response.
    status: readStatus(record.EdgeResponseStatus ?? (record.OriginResponseStatus || undefined), "EdgeResponseStatus"),
    userAgent: optionalString(record.ClientRequestUserAgent) ?? "",
    referrer: optionalString(record.ClientRequestReferer),
    accept: optionalString(headers.accept),
  });
}

/** Logpush writes `unixnano` (the default, a number or numeric string), `unix` (seconds) or `rfc3339`. */
function readLogpushTimestamp(value: unknown): string | Skipped {
  return isoFromMs(logpushMs(value)) ?? skip("malformed", `EdgeStartTimestamp ${quote(value)} is not unixnano, unix or rfc3339`);
}

function logpushMs(value: unknown): number {
  // unixnano numbers exceed 2^53 and arrive rounded to ~256 ns, far below the millisecond the hit keeps.
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? msFromEpoch(BigInt(value)) : NaN;
  if (typeof value !== "string") return NaN;
  if (/^\d+$/.test(value)) return msFromEpoch(BigInt(value));
  return RFC3339_WITH_ZONE.test(value) ? Date.parse(value) : NaN;
}

/** Tells epoch units apart by magnitude: seconds, milliseconds, microseconds or nanoseconds of a date since 1970. */
function msFromEpoch(epoch: bigint): number {
  const digits = epoch.toString().length;
  if (digits <= 11) return Number(epoch * 1000n);
  if (digits <= 14) return Number(epoch);
  if (digits <= 17) return Number(epoch / 1000n);
  return Number(epoch / 1_000_000n);
}

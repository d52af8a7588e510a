import { firstSkipOr, isoFromMs, isRecord, optionalString, parseJsonObject, quote, readIp, readStatus, readString, skip, type LoggedRequest, type Skipped } from "../fields.js";

/** Vercel log drain NDJSON: requests carry a `proxy` object. */

// A function's console output repeats its request's proxy object; the request has an entry of its own.
const FUNCTION_OUTPUT_TYPES = new Set(["stdout", "stderr"]);

export function readVercel(line: string): LoggedRequest | Skipped {
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

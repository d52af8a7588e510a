import { firstSkipOr, isoFromMs, isRecord, optionalString, parseJsonObject, quote, readIp, readStatus, readString, skip, type LoggedRequest, type Skipped } from "../fields.js";
import { epochMs } from "./times.js";

/** Cloudflare Logpush http_requests NDJSON. */

const RFC3339_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

export function readCloudflare(line: string): LoggedRequest | Skipped {
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
  if (typeof value === "number") return Number.isInteger(value) ? epochMs(value) : NaN;
  if (typeof value !== "string") return NaN;
  if (/^\d+$/.test(value)) return epochMs(value);
  return RFC3339_WITH_ZONE.test(value) ? Date.parse(value) : NaN;
}

import { firstSkipOr, optionalString, parseJsonObject, pick, readIp, readStatus, readString, skip, type LoggedRequest, type Skipped } from "../fields.js";
import { readRequestLine } from "./clf.js";
import { readAnyTime } from "./times.js";

/**
 * Fastly real-time log streaming with a JSON log format. Fastly has no fixed schema: the operator
 * writes the format string, so each field is taken from the first of the spellings below that the
 * line has, Fastly's own examples first (`timestamp`, `client_ip`, `request_method`, `url`,
 * `response_status`, `request_user_agent`, `request_referer`).
 * https://www.fastly.com/documentation/guides/integrations/streaming-logs/custom-log-formats/
 */
const KEYS = {
  ip: ["client_ip", "ip", "remote_addr"],
  // strftime(%Y-%m-%dT%H:%M:%S%z, time.start), or %{begin:msec}t; a time without zone is GMT, as Fastly's VCL times are.
  time: ["timestamp", "time_start", "time", "start_time"],
  // req.method; Fastly's `req.request` is the method too, though some formats log a whole request line there.
  method: ["request_method", "method", "request"],
  target: ["url", "request_url", "uri", "path"],
  status: ["response_status", "status", "status_code", "resp_status"],
  userAgent: ["request_user_agent", "user_agent", "useragent"],
  referrer: ["request_referer", "referer", "referrer", "request_referrer"],
  accept: ["request_accept", "accept"],
} as const;

export function readFastly(line: string): LoggedRequest | Skipped {
  const record = parseJsonObject(line);
  if (record === undefined) return skip("malformed", "not a JSON object");
  const get = (name: keyof typeof KEYS) => pick(record, KEYS[name]);
  const header = (name: keyof typeof KEYS) => fastlyHeader(get(name).value);
  const [ip, time, method, target, status] = [get("ip"), get("time"), get("method"), get("target"), get("status")];
  const request = typeof method.value === "string" && method.value.includes(" ") ? readRequestLine(method.value) : undefined;
  if (request !== undefined && "ok" in request) return request;
  return firstSkipOr({
    ip: readIp(ip.value, ip.key),
    timestamp: readAnyTime(time.value, time.key, { zonelessUtc: true }),
    method: request?.method ?? readString(method.value, method.key),
    target: target.value === undefined && request ? request.target : readString(target.value, target.key),
    status: readStatus(status.value, status.key),
    userAgent: header("userAgent") ?? "",
    referrer: header("referrer"),
    accept: header("accept"),
  });
}

/** VCL writes an unset header as "(null)" unless the format wraps it in if(); nginx-style "-" is seen too. */
function fastlyHeader(value: unknown): string | undefined {
  const text = optionalString(value);
  return text === "(null)" || text === "-" ? undefined : text;
}

import { firstSkipOr, optionalString, parseJsonObject, readIp, readStatus, readString, skip, type LoggedRequest, type Skipped } from "../fields.js";
import { readAnyTime } from "./times.js";

/**
 * Netlify log drains (NDJSON): traffic records carry `log_type: "traffic"`, `client_ip`,
 * `timestamp` (RFC 3339), `method`, `url`, `status_code`, `user_agent` and `referrer`. A drain
 * may also carry function, edge function, deploy and WAF records, which are no page requests.
 * https://docs.netlify.com/manage/monitoring/log-drains/
 */
export function readNetlify(line: string): LoggedRequest | Skipped {
  const record = parseJsonObject(line);
  if (record === undefined) return skip("malformed", "not a JSON object");
  const type = record.log_type;
  if (typeof type === "string" && type !== "traffic") return skip("not-a-page-view", `${type} log line, not traffic`);
  // A drain set to exclude personal data drops client_ip and user_agent: no visitor can be told apart.
  return firstSkipOr({
    ip: readIp(record.client_ip, "client_ip"),
    timestamp: readAnyTime(record.timestamp, "timestamp"),
    method: readString(record.method, "method"),
    target: readString(record.url, "url"),
    status: readStatus(record.status_code, "status_code"),
    userAgent: optionalString(record.user_agent) ?? "",
    referrer: optionalString(record.referrer),
    accept: undefined,
  });
}

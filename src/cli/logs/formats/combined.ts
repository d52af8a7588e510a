import { readIp, readStatus, skip, type LoggedRequest, type Skipped } from "../fields.js";
import { dashAsMissing, QUOTED_CONTENT, readRequestLine, unescapeLogField } from "./clf.js";
import { readClfTime } from "./times.js";

/**
 * combined / common log format: %h %l %u [%t] "%r" %>s %b ["%{Referer}i" "%{User-agent}i"], and
 * Apache's vhost_combined (`%v:%p` first), told apart by the field count before `[`: a virtual
 * host adds a fourth, so a combined line never reads as one.
 */

const QUOTED = `"(${QUOTED_CONTENT})"`;
// A host name or IPv4 address with an optional port, or a bracketed IPv6 one.
const VHOST = String.raw`(?:[A-Za-z\d.-]+|\[[\dA-Fa-f:.]+\])(?::\d+)?`;
// Either ends after %b (common) or goes on with referer and user agent (combined), which may be
// followed by more fields. The virtual host is tried only where three fields and a `[` follow it,
// so an ordinary line's address is not first taken for one and given back.
const COMBINED = new RegExp(String.raw`^(?:${VHOST} (?=\S+ \S+ \S+ \[))?(\S+) \S+ \S+ \[([^\]]*)\] ${QUOTED} (\S+) \S+(?:\s*$| ${QUOTED} ${QUOTED})`);

export function readCombined(line: string): LoggedRequest | Skipped {
  const match = COMBINED.exec(line);
  if (match === null) return skip("malformed", "not in combined or common log format");
  const ip = readIp(match[1], "client address");
  if (typeof ip !== "string") return ip;
  const timestamp = readClfTime(match[2] ?? "");
  if (typeof timestamp !== "string") return timestamp;
  const request = readRequestLine(unescapeLogField(match[3] ?? ""));
  if ("ok" in request) return request;
  const status = readStatus(match[4], "status");
  if (typeof status === "object") return status;
  return {
    method: request.method,
    target: request.target,
    ip,
    timestamp,
    status,
    userAgent: dashAsMissing(match[6]) ?? "",
    referrer: dashAsMissing(match[5]),
    accept: undefined,
  };
}

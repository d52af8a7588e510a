import { firstSkipOr, readIp, readStatus, skip, type LoggedRequest, type Skipped } from "../fields.js";
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
// Either ends after %b (common) or goes on with referer and user agent (combined), which may be followed by more fields.
const COMBINED = new RegExp(String.raw`^(?:${VHOST} )?(\S+) \S+ \S+ \[([^\]]*)\] ${QUOTED} (\S+) \S+(?:\s*$| ${QUOTED} ${QUOTED})`);

export function readCombined(line: string): LoggedRequest | Skipped {
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

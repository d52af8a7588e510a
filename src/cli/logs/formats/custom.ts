import { UsageError } from "../../errors.js";
import { firstSkipOr, readIp, readStatus, readString, skip, type LoggedRequest, type RecordReader, type Skipped } from "../fields.js";
import { dashAsMissing, QUOTED_CONTENT, readRequestLine } from "./clf.js";
import { readAnyTime, readClfTime } from "./times.js";

/**
 * A log in the operator's own nginx `log_format` (GoatCounter-style `--log-format`): nginx variable
 * names between literal text, compiled once into one regular expression. Variables the import
 * does not need (`$body_bytes_sent`, `$request_time`, `$host`, …) are matched and ignored.
 */

type Role = "ip" | "forwardedFor" | "timeLocal" | "timeIso" | "msec" | "request" | "method" | "requestUri" | "uri" | "args" | "status" | "referrer" | "userAgent" | "accept";

const ROLES: Record<string, Role> = {
  remote_addr: "ip",
  realip_remote_addr: "ip",
  http_x_forwarded_for: "forwardedFor",
  time_local: "timeLocal",
  time_iso8601: "timeIso",
  msec: "msec",
  request: "request",
  request_method: "method",
  request_uri: "requestUri",
  uri: "uri",
  document_uri: "uri",
  args: "args",
  query_string: "args",
  status: "status",
  http_referer: "referrer",
  http_user_agent: "userAgent",
  http_accept: "accept",
};

// Values with spaces need their own shape when no quotes delimit them.
const SHAPES: Partial<Record<Role, string>> = {
  timeLocal: String.raw`\d{2}/[A-Za-z]{3}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}`,
  request: String.raw`-|[A-Z]+ \S+(?: HTTP/\d(?:\.\d)?)?`,
};

const REQUIRED: { what: string; roles: Role[]; variables: string }[] = [
  { what: "client address", roles: ["ip", "forwardedFor"], variables: "$remote_addr" },
  { what: "time", roles: ["timeLocal", "timeIso", "msec"], variables: "$time_local, $time_iso8601 or $msec" },
  { what: "path", roles: ["request", "requestUri", "uri"], variables: "$request, $request_uri or $uri" },
  { what: "user agent", roles: ["userAgent"], variables: "$http_user_agent" },
];

const VARIABLE = /\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/g;

type Part = { literal: string } | { variable: string };

/** Throws a usage error naming what the format lacks; the import cannot count a view without it. */
export function compileLogFormat(format: string): RecordReader {
  const parts = tokenize(format);
  const groups = new Map<Role, number>();
  let pattern = "^";
  let group = 0;
  parts.forEach((part, index) => {
    if ("literal" in part) {
      pattern += escapeLiteral(part.literal);
      return;
    }
    const role = ROLES[part.variable.toLowerCase()];
    pattern += `(${capture(role, parts[index - 1], parts[index + 1])})`;
    group++;
    if (role !== undefined && !groups.has(role)) groups.set(role, group);
  });
  const missing = REQUIRED.filter((required) => !required.roles.some((role) => groups.has(role)));
  if (missing.length > 0) {
    throw new UsageError(`--log-format has no ${missing.map((m) => `${m.what} (${m.variables})`).join(", ")}: the import needs each to count a view`);
  }
  const regex = new RegExp(`${pattern}\\s*$`);
  return (line) => {
    const match = regex.exec(line);
    if (match === null) return skip("malformed", "does not match --log-format");
    return readFields((role) => {
      const at = groups.get(role);
      return at === undefined ? undefined : match[at];
    });
  };
}

function tokenize(format: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of format.matchAll(VARIABLE)) {
    if (match.index > last) parts.push({ literal: format.slice(last, match.index) });
    parts.push({ variable: match[1] ?? match[2] ?? "" });
    last = match.index + match[0].length;
  }
  if (last < format.length) parts.push({ literal: format.slice(last) });
  return parts;
}

/** What one variable matches: a quoted field's content, a known shape, or everything up to the next literal's first character. */
function capture(role: Role | undefined, before: Part | undefined, after: Part | undefined): string {
  const quoted = before !== undefined && "literal" in before && before.literal.endsWith('"') && after !== undefined && "literal" in after && after.literal.startsWith('"');
  if (quoted) return QUOTED_CONTENT;
  const shape = role === undefined ? undefined : SHAPES[role];
  if (shape !== undefined) return shape;
  if (after === undefined) return ".*?";
  if ("variable" in after) return String.raw`\S*?`;
  return `[^${escapeClass(after.literal[0] ?? "")}]*`;
}

function escapeLiteral(text: string): string {
  // Runs of spaces are one separator: aligned formats pad with them.
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&").replace(/ +/g, " +");
}

function escapeClass(char: string): string {
  return char.replace(/[\]\\^-]/g, "\\$&");
}

function readFields(value: (role: Role) => string | undefined): LoggedRequest | Skipped {
  const get = (role: Role) => dashAsMissing(value(role));
  const fields = firstSkipOr({
    ip: readIp(get("ip") ?? get("forwardedFor")?.split(",")[0]?.trim(), "client address"),
    timestamp: readCustomTime(get("msec"), get("timeIso"), value("timeLocal")),
    request: readCustomRequest(get("request"), get("method"), get("requestUri"), get("uri"), get("args")),
    status: readStatus(get("status"), "status"),
  });
  if ("ok" in fields) return fields;
  return {
    ...fields.request,
    ip: fields.ip,
    timestamp: fields.timestamp,
    status: fields.status,
    userAgent: get("userAgent") ?? "",
    referrer: get("referrer"),
    accept: get("accept"),
  };
}

/** The finest the format logs: $msec has milliseconds, the others whole seconds. */
function readCustomTime(msec: string | undefined, iso: string | undefined, local: string | undefined): string | Skipped {
  if (msec !== undefined) return readAnyTime(msec, "$msec");
  if (iso !== undefined) return readAnyTime(iso, "$time_iso8601");
  return readClfTime(local ?? "");
}

/** `$request`, else the method (GET when the format logs none) and `$request_uri`, or `$uri` with `$args`. */
function readCustomRequest(line: string | undefined, method: string | undefined, requestUri: string | undefined, uri: string | undefined, args: string | undefined) {
  if (line !== undefined) return readRequestLine(line);
  const target = readString(requestUri ?? (uri !== undefined && args !== undefined ? `${uri}?${args}` : uri), "request target");
  return typeof target === "string" ? { method: method ?? "GET", target } : target;
}

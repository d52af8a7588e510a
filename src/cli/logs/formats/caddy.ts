import { z } from "zod";
import { firstSkipOr, isRecord, parseJsonObject, quote, readIp, readStatus, skip, type LoggedRequest, type Skipped } from "../fields.js";
import { readAnyTime } from "./times.js";
import { zodSkip } from "./zod-skip.js";

/**
 * Caddy v2's structured access log (the `log` directive's default JSON encoder): one object per
 * request, the request under `request`, headers as Go writes them (canonical names, each an array
 * of values). https://caddyserver.com/docs/caddyfile/directives/log
 */

const caddyRequest = z.looseObject({
  // Since Caddy 2.7 the address behind trusted proxies; remote_ip is the connection's own.
  client_ip: z.string().optional(),
  remote_ip: z.string().optional(),
  method: z.string().min(1),
  uri: z.string().min(1),
  headers: z.record(z.string(), z.array(z.string())).optional(),
});

export function readCaddy(line: string): LoggedRequest | Skipped {
  const entry = parseJsonObject(line);
  if (entry === undefined) return skip("malformed", "not a JSON object");
  // The same file may hold Caddy's other logs (tls, admin, errors) when the access log is not split out.
  if (typeof entry.logger === "string" && !entry.logger.startsWith("http.log.access")) return skip("not-a-page-view", `${entry.logger} line, not an access log entry`);
  if (!isRecord(entry.request)) return skip("malformed", `no request object (msg ${quote(entry.msg)})`);
  const parsed = caddyRequest.safeParse(entry.request);
  if (!parsed.success) return zodSkip(parsed.error, "request");
  const request = parsed.data;
  const header = (name: string) => headerValue(request.headers, name);
  const address = request.client_ip || request.remote_ip;
  return firstSkipOr({
    ip: readIp(address, request.client_ip ? "request.client_ip" : "request.remote_ip"),
    timestamp: readAnyTime(entry.ts, "ts"),
    method: request.method,
    target: request.uri,
    status: readStatus(entry.status, "status"),
    userAgent: header("user-agent") ?? "",
    referrer: header("referer"),
    accept: header("accept"),
  });
}

/** The first value of a header, matched without regard to case: Go canonicalizes the names, other writers may not. */
function headerValue(headers: Record<string, string[]> | undefined, name: string): string | undefined {
  const key = Object.keys(headers ?? {}).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers?.[key]?.[0];
  return value === "" ? undefined : value;
}

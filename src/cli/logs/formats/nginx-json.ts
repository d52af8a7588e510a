import { z } from "zod";
import { UsageError } from "../../errors.js";
import { firstSkipOr, isRecord, optionalLogged, parseJsonObject, pick, readIp, readStatus, readString, skip, type RecordReader, type Skipped } from "../fields.js";
import { readRequestLine } from "./clf.js";
import { readAnyTime } from "./times.js";

/**
 * nginx `log_format … escape=json '{"time":"$time_iso8601",…}'`: the keys are whatever the
 * operator wrote, so each field the import needs is looked up under the keys below, named after
 * the nginx variable that fills it, unless `--field NAME=KEY` says where it is.
 */

export const NGINX_JSON_FIELDS = ["ip", "time", "request", "method", "uri", "status", "userAgent", "referrer", "accept"] as const;
export type NginxJsonField = (typeof NGINX_JSON_FIELDS)[number];
export type FieldMap = Record<NginxJsonField, readonly string[]>;

/** The keys tried for each field, in order (docs/analytics/sending-views.md#access-logs). */
export const DEFAULT_NGINX_JSON_FIELDS: FieldMap = {
  ip: ["remote_addr"],
  time: ["time_iso8601", "time_local", "msec", "time", "timestamp", "@timestamp"],
  request: ["request"],
  method: ["request_method"],
  uri: ["request_uri", "uri"],
  status: ["status"],
  userAgent: ["http_user_agent"],
  referrer: ["http_referer"],
  accept: ["http_accept"],
};

const fieldSpec = z.tuple([z.enum(NGINX_JSON_FIELDS), z.string().min(1)]);

/** `--field ip=client --field userAgent=ua`: each replaces the default keys of that field with one key (a dotted path reaches into objects). */
export function nginxJsonFieldMap(specs: readonly string[]): FieldMap {
  const map: FieldMap = { ...DEFAULT_NGINX_JSON_FIELDS };
  for (const spec of specs) {
    const at = spec.indexOf("=");
    const parsed = fieldSpec.safeParse(at < 0 ? [spec] : [spec.slice(0, at), spec.slice(at + 1)]);
    if (!parsed.success) throw new UsageError(`--field ${spec} is not NAME=KEY with NAME one of ${NGINX_JSON_FIELDS.join(", ")}`);
    const [name, key] = parsed.data;
    map[name] = [key];
  }
  return map;
}

export function nginxJsonReader(fields: FieldMap = DEFAULT_NGINX_JSON_FIELDS): RecordReader {
  return (line) => {
    const record = parseJsonObject(line);
    if (record === undefined) return skip("malformed", "not a JSON object");
    const get = (name: NginxJsonField) => lookup(record, fields[name]);
    const ip = get("ip");
    const time = get("time");
    const status = get("status");
    const request = readRequest(get("request"), get("method"), get("uri"), fields);
    const fieldsRead = firstSkipOr({
      ip: readIp(ip.value, ip.key),
      timestamp: readAnyTime(time.value, time.key),
      request,
      status: readStatus(status.value === "-" || status.value === "" ? undefined : status.value, status.key),
    });
    if ("ok" in fieldsRead) return fieldsRead;
    return {
      ...fieldsRead.request,
      ip: fieldsRead.ip,
      timestamp: fieldsRead.timestamp,
      status: fieldsRead.status,
      userAgent: optionalLogged(get("userAgent").value) ?? "",
      referrer: optionalLogged(get("referrer").value),
      accept: optionalLogged(get("accept").value),
    };
  };
}

/** `$request` when logged; otherwise `$request_method` and `$request_uri` (a log without the method counts its requests as GET). */
function readRequest(line: Found, method: Found, uri: Found, fields: FieldMap): { method: string; target: string } | Skipped {
  const requestLine = optionalLogged(line.value);
  if (requestLine !== undefined) return readRequestLine(requestLine);
  const target = readString(optionalLogged(uri.value), `${fields.request[0]} or ${uri.key}`);
  if (typeof target !== "string") return target;
  return { method: optionalLogged(method.value) ?? "GET", target };
}

type Found = { key: string; value: unknown };

/** The first key present; a key with dots that is not itself present is a path into nested objects (`--field ip=client.address`). */
function lookup(record: Record<string, unknown>, keys: readonly string[]): Found {
  const found = pick(record, keys);
  if (found.value !== undefined) return found;
  for (const key of keys) {
    if (!key.includes(".")) continue;
    let value: unknown = record;
    for (const part of key.split(".")) value = isRecord(value) ? value[part] : undefined;
    if (value !== undefined && value !== null) return { key, value };
  }
  return found;
}

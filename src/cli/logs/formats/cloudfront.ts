import { firstSkipOr, isoFromMs, quote, readIp, readStatus, readString, skip, type RecordReader, type Skipped } from "../fields.js";
import { epochMs } from "./times.js";

/**
 * Amazon CloudFront standard (access) logs: W3C extended format, tab-separated, after `#Version:`
 * and `#Fields:` directives that name the columns. The order is read from `#Fields:`; a file
 * without it is read in the documented legacy order. Times are UTC; `-` is an empty value;
 * User-Agent and Referer are URL-encoded (`%20`).
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/standard-logs-reference.html
 */

const LEGACY_FIELDS = (
  "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) " +
  "x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher " +
  "x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte " +
  "x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end"
).split(" ");
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}:\d{2}(?:\.\d+)?$/;

/** One reader per file: it keeps the last `#Fields:` it saw. */
export function cloudfrontReader(): RecordReader {
  let columns = indexOf(LEGACY_FIELDS);
  return (line) => {
    if (line.startsWith("#")) {
      const fields = /^#Fields:\s*(.*)$/.exec(line)?.[1]?.trim();
      if (fields) columns = indexOf(fields.split(/\s+/));
      return null;
    }
    const values = line.split("\t");
    if (values.length !== columns.size) return skip("malformed", `${values.length} tab-separated fields where #Fields names ${columns.size}`);
    const get = (name: string): string | undefined => {
      const value = values[columns.get(name) ?? -1];
      return value === "-" || value === "" ? undefined : value;
    };
    const stem = readString(get("cs-uri-stem"), "cs-uri-stem");
    const query = get("cs-uri-query");
    return firstSkipOr({
      ip: readIp(get("c-ip"), "c-ip"),
      timestamp: readCloudfrontTime(get("date"), get("time"), get("timestamp")),
      method: readString(get("cs-method"), "cs-method"),
      target: typeof stem === "string" && query !== undefined ? `${stem}?${query}` : stem,
      status: readStatus(get("sc-status"), "sc-status"),
      userAgent: urlDecoded(get("cs(User-Agent)")) ?? "",
      referrer: urlDecoded(get("cs(Referer)")),
      accept: undefined,
    });
  };
}

function indexOf(fields: string[]): Map<string, number> {
  return new Map(fields.map((field, index) => [field, index]));
}

/** `date` and `time` (UTC), or the epoch `timestamp` that real-time and newer standard logs carry. */
function readCloudfrontTime(date: string | undefined, time: string | undefined, timestamp: string | undefined): string | Skipped {
  if (date === undefined && time === undefined && timestamp !== undefined) {
    return isoFromMs(epochMs(timestamp)) ?? skip("malformed", `timestamp ${quote(timestamp)} is not epoch seconds`);
  }
  const ms = date !== undefined && time !== undefined && DATE.test(date) && TIME.test(time) ? Date.parse(`${date}T${time}Z`) : NaN;
  return isoFromMs(ms) ?? skip("malformed", `date and time ${quote(`${date ?? "-"} ${time ?? "-"}`)} are not yyyy-mm-dd HH:MM:SS`);
}

/** CloudFront percent-encodes spaces and other bytes in these headers; a value that does not decode is kept as logged. */
function urlDecoded(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

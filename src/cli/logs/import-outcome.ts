import { UsageError } from "../errors.js";
import type { ImportSummary } from "./summary.js";

/** `--max-rejected`: how many lines may fail to import before the import exits non-zero. */
export type RejectedLimit = { count: number } | { percent: number };

const LIMIT = /^(\d+)$|^(\d+(?:\.\d+)?)%$/;

export function parseMaxRejected(value: string | undefined): RejectedLimit | undefined {
  if (value === undefined) return undefined;
  const [, count, percent] = LIMIT.exec(value) ?? [];
  if (count !== undefined) return { count: Number(count) };
  if (percent !== undefined && Number(percent) <= 100) return { percent: Number(percent) };
  throw new UsageError("--max-rejected must be a number of lines (e.g. 100) or a percentage (e.g. 0.5%)");
}

/**
 * Why a finished import should exit non-zero, or undefined. Rejected lines are those that could
 * not be imported: unreadable (malformed), or refused by the server (e.g. too old). Lines skipped
 * as no page view (assets, other methods, redirects) are not: a log is expected to have them.
 * - A one-off import that read lines and accepted none failed, whatever the limit (a followed file
 *   may stay quiet until it is stopped).
 * - With a limit, more rejected lines than it allows fail: a percentage is of the lines that were
 *   page views or unreadable (accepted + rejected).
 */
export function importFailure(summary: ImportSummary, limit: RejectedLimit | undefined, { follow }: { follow: boolean }): string | undefined {
  const rejected = summary.skipped.malformed + summary.skipped.rejected;
  if (!follow && summary.lines > 0 && summary.accepted === 0) {
    return `nothing imported: no page view accepted from ${lines(summary.lines)}${rejected > 0 ? ` (${rejectedDetail(summary)})` : ""}`;
  }
  if (limit === undefined || rejected === 0) return undefined;
  const considered = summary.accepted + rejected;
  const share = (100 * rejected) / considered;
  if ("count" in limit ? rejected <= limit.count : share <= limit.percent) return undefined;
  const allowed = "count" in limit ? lines(limit.count) : `${limit.percent}%`;
  return `${rejectedDetail(summary)}: ${formatShare(share)} of ${lines(considered)} that were page views or unreadable, more than --max-rejected allows (${allowed})`;
}

function rejectedDetail(summary: ImportSummary): string {
  const parts = [
    ...(summary.skipped.malformed > 0 ? [`${lines(summary.skipped.malformed)} malformed`] : []),
    ...(summary.skipped.rejected > 0 ? [`${lines(summary.skipped.rejected)} rejected by the server`] : []),
  ];
  return parts.join(", ");
}

const lines = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "line" : "lines"}`;

function formatShare(percent: number): string {
  return `${percent < 0.1 ? percent.toPrecision(1) : Number(percent.toFixed(1))}%`;
}

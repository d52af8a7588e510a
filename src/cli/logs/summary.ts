import type { SkipReason } from "./fields.js";
import { counted } from "../../shared/counted.js";

/** What an import tells at the end (and `--json` prints as is). */
export interface ImportSummary {
  lines: number;
  accepted: number;
  /** Of the accepted: lines an earlier import had already sent (not counted again). */
  alreadyImported: number;
  skipped: Record<SkipReason | "rejected", number>;
  /** The first few reasons, to show what to fix. */
  examples: string[];
}

const MAX_EXAMPLES = 5;

export function emptySummary(): ImportSummary {
  return { lines: 0, accepted: 0, alreadyImported: 0, skipped: { malformed: 0, "not-a-page-view": 0, method: 0, status: 0, rejected: 0 }, examples: [] };
}

export function addExample(summary: ImportSummary, text: string): void {
  if (summary.examples.length < MAX_EXAMPLES) summary.examples.push(text);
}

export function formatSummary(summary: ImportSummary): string {
  const skipped = Object.entries(summary.skipped).filter(([, n]) => n > 0);
  const total = skipped.reduce((sum, [, n]) => sum + n, 0);
  return [
    `Read ${counted(summary.lines, "line")}.`,
    `Accepted ${counted(summary.accepted, "page view")} (${(summary.accepted - summary.alreadyImported).toLocaleString("en")} new, ${summary.alreadyImported.toLocaleString("en")} already imported before).`,
    `Skipped ${total.toLocaleString("en")}${skipped.length > 0 ? `: ${skipped.map(([reason, n]) => `${reason} ${n.toLocaleString("en")}`).join(", ")}` : ""}.`,
    ...(summary.examples.length > 0 ? ["", "Examples:", ...summary.examples.map((e) => `  - ${e}`)] : []),
  ].join("\n");
}

/** One progress line: a bar when the size is known, otherwise counts. */
export function progressLine(summary: ImportSummary, bytesRead: number, totalBytes: number | null): string {
  const counts = `${counted(summary.lines, "line")}, ${summary.accepted.toLocaleString("en")} accepted (${(summary.accepted - summary.alreadyImported).toLocaleString("en")} new)`;
  if (!totalBytes) return counts;
  const share = Math.min(1, bytesRead / totalBytes);
  const width = 24;
  const filled = Math.round(share * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${counts}`;
}

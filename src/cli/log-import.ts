import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { HitBatchResult } from "../shared/analytics-schemas.js";
import { MAX_HITS_PER_BATCH } from "../shared/analytics-schemas.js";
import { CliError } from "./errors.js";
import type { ImportHit, SkipReason } from "./log-fields.js";
import { lineHitId, parseLogLine, type LogFormat } from "./log-formats.js";

export interface ImportSummary {
  lines: number;
  accepted: number;
  /** Of the accepted: lines an earlier import had already sent (not counted again). */
  alreadyImported: number;
  skipped: Record<SkipReason | "rejected", number>;
  /** The first few reasons, to show what to fix. */
  examples: string[];
}

export interface ImportOptions {
  format: LogFormat;
  input: Readable;
  /** Size of the input in bytes when known (a file), for the progress bar. */
  totalBytes: number | null;
  send: (hits: (ImportHit & { id: string })[]) => Promise<HitBatchResult>;
  progress: (summary: ImportSummary, bytesRead: number) => void;
  inFlight?: number;
}

/** Identical lines further apart than this are taken to be the same line re-read, not a second request. */
const OCCURRENCE_MEMORY = 10_000;
const MAX_EXAMPLES = 5;

/**
 * Streams a log through the batch API: parse each line, give it a stable id (the line and how
 * many identical lines came just before), send batches of 1,000 with a few in flight. Re-running
 * the same file sends the same ids, which the server recognizes, so nothing is counted twice.
 */
export async function importLog(options: ImportOptions): Promise<ImportSummary> {
  const summary: ImportSummary = {
    lines: 0,
    accepted: 0,
    alreadyImported: 0,
    skipped: { malformed: 0, "not-a-page-view": 0, method: 0, status: 0, rejected: 0 },
    examples: [],
  };
  const example = (text: string) => {
    if (summary.examples.length < MAX_EXAMPLES) summary.examples.push(text);
  };
  let bytesRead = 0;
  options.input.on("data", (chunk: Buffer | string) => (bytesRead += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length));
  const seen = new Map<string, number>();
  const pending = new Set<Promise<void>>();
  let batch: (ImportHit & { id: string })[] = [];
  let batchLines: number[] = [];
  let failure: unknown = null;

  const flush = async () => {
    const hits = batch;
    const lineOf = batchLines;
    batch = [];
    batchLines = [];
    const sending = options
      .send(hits)
      .then((result) => {
        summary.accepted += result.accepted;
        summary.alreadyImported += result.duplicates;
        summary.skipped.rejected += result.rejected.length;
        for (const r of result.rejected) example(`line ${lineOf[r.index]}: rejected by the server: ${r.error}`);
        options.progress(summary, bytesRead);
      })
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => pending.delete(sending));
    pending.add(sending);
    while (pending.size >= (options.inFlight ?? 4)) await Promise.race(pending);
  };

  const lines = createInterface({ input: options.input, crlfDelay: Infinity });
  for await (const raw of lines) {
    if (failure) break;
    const line = summary.lines === 0 ? raw.replace(/^\uFEFF/, "") : raw;
    summary.lines++;
    if (line.trim() === "") continue;
    const parsed = parseLogLine(options.format, line);
    if (!parsed.ok) {
      summary.skipped[parsed.reason]++;
      if (parsed.reason === "malformed") example(`line ${summary.lines}: ${parsed.detail}`);
      continue;
    }
    const occurrence = seen.get(line) ?? 0;
    seen.set(line, occurrence + 1);
    if (seen.size > OCCURRENCE_MEMORY) seen.delete(seen.keys().next().value as string);
    batch.push({ ...parsed.hit, id: lineHitId(line, occurrence) });
    batchLines.push(summary.lines);
    if (batch.length === MAX_HITS_PER_BATCH) await flush();
  }
  if (batch.length > 0 && !failure) await flush();
  await Promise.all(pending);
  if (failure) throw failure instanceof CliError ? failure : new CliError(String(failure));
  options.progress(summary, bytesRead);
  return summary;
}

export function formatSummary(summary: ImportSummary): string {
  const skipped = Object.entries(summary.skipped).filter(([, n]) => n > 0);
  const total = skipped.reduce((sum, [, n]) => sum + n, 0);
  return [
    `Read ${summary.lines.toLocaleString("en")} lines.`,
    `Accepted ${summary.accepted.toLocaleString("en")} page views (${(summary.accepted - summary.alreadyImported).toLocaleString("en")} new, ${summary.alreadyImported.toLocaleString("en")} already imported before).`,
    `Skipped ${total.toLocaleString("en")}${skipped.length > 0 ? `: ${skipped.map(([reason, n]) => `${reason} ${n.toLocaleString("en")}`).join(", ")}` : ""}.`,
    ...(summary.examples.length > 0 ? ["", "Examples:", ...summary.examples.map((e) => `  - ${e}`)] : []),
  ].join("\n");
}

/** One progress line: a bar when the size is known, otherwise counts. */
export function progressLine(summary: ImportSummary, bytesRead: number, totalBytes: number | null): string {
  const counts = `${summary.lines.toLocaleString("en")} lines, ${summary.accepted.toLocaleString("en")} accepted`;
  if (!totalBytes) return counts;
  const share = Math.min(1, bytesRead / totalBytes);
  const width = 24;
  const filled = Math.round(share * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${counts}`;
}

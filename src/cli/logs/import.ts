import type { ImportHit, LineParser } from "./fields.js";
import { lineHitId } from "./formats.js";
import { LineOccurrences } from "./occurrences.js";
import { HitSender, type SendHits } from "./sender.js";
import { addExample, emptySummary, type ImportSummary } from "./summary.js";

export interface ImportOptions {
  parser: LineParser;
  lines: AsyncIterable<readonly string[]>;
  send: SendHits;
  /** Called after each accepted batch. */
  progress: (summary: ImportSummary) => void;
  inFlight?: number;
}

/**
 * Streams a log through the batch API: parse each line, give it a stable id (the line and how
 * many identical lines came before it), send batches of 1,000 with a few in flight. Re-running
 * the same file sends the same ids, which the server recognizes, so nothing is counted twice.
 */
export async function importLog(options: ImportOptions): Promise<ImportSummary> {
  const summary = emptySummary();
  const sender = new HitSender({ send: options.send, summary, inFlight: options.inFlight, onAccepted: () => options.progress(summary) });
  const occurrences = new LineOccurrences();
  reading: for await (const batch of options.lines) {
    for (const raw of batch) {
      if (sender.failed) break reading;
      const line = summary.lines === 0 ? withoutBom(raw) : raw;
      summary.lines++;
      const hit = hitOfLine(line, options.parser, summary);
      if (hit === undefined) continue;
      if (sender.add({ ...hit, id: lineHitId(line, occurrences.next(line)) }, summary.lines)) await sender.flush();
    }
  }
  if (!sender.failed) await sender.flush();
  await sender.finish();
  options.progress(summary);
  return summary;
}

/** The hit of one counted line, or undefined after counting why it is none (blank and directive lines count in no reason). */
export function hitOfLine(line: string, parser: LineParser, summary: ImportSummary): ImportHit | undefined {
  if (line.trim() === "") return undefined;
  const parsed = parser(line);
  if (parsed === null) return undefined;
  if (parsed.ok) return parsed.hit;
  summary.skipped[parsed.reason]++;
  if (parsed.reason === "malformed") addExample(summary, `line ${summary.lines}: ${parsed.detail}`);
  return undefined;
}

/** A byte order mark at the start of a file belongs to no line. */
export function withoutBom(line: string): string {
  return line.replace(/^\uFEFF/, "");
}

import type { LineParser } from "./fields.js";
import { tailFile, type FileCursor } from "./follow.js";
import { readFollowState, writeFollowState } from "./follow-state.js";
import { lineHitId } from "./formats.js";
import { hitOfLine, withoutBom } from "./import.js";
import { LineOccurrences } from "./occurrences.js";
import { HitSender, type SendHits } from "./sender.js";
import { emptySummary, type ImportSummary } from "./summary.js";

export interface FollowOptions {
  path: string;
  statePath: string;
  parser: LineParser;
  send: SendHits;
  /** Aborted on SIGINT/SIGTERM: the batch read so far is sent and the position saved before the import returns. */
  signal: AbortSignal;
  intervalMs: number;
  progress: (summary: ImportSummary) => void;
  notice: (text: string) => void;
  graceMs?: number;
}

/**
 * `import --follow`: imports a live log as it grows, through rotations, until stopped. Ids are
 * those a one-off import of each file would give (the line and its occurrence in that file), so
 * the server deduplicates anything read twice; the state file makes a restart carry on where the
 * last accepted batch ended instead of reading everything again.
 */
export async function followLog(options: FollowOptions): Promise<ImportSummary> {
  const saved = readFollowState(options.statePath, options.path);
  const summary = emptySummary();
  const sender = new HitSender({ send: options.send, summary, onAccepted: () => options.progress(summary) });
  let occurrences = new LineOccurrences();
  let cursor: FileCursor | null = null;
  // The position and counters as they are now; saved once everything read before it is accepted.
  const checkpoint = () => {
    const at = cursor;
    const counters = occurrences.serialize();
    return () => {
      if (at !== null) writeFollowState(options.statePath, options.path, at, counters);
    };
  };

  const tail = tailFile({ path: options.path, resume: saved?.file ?? null, intervalMs: options.intervalMs, signal: options.signal, graceMs: options.graceMs });
  for await (const event of tail) {
    cursor = event.cursor;
    if (event.kind === "open") {
      occurrences = event.resumed && saved ? LineOccurrences.parse(saved.occurrences) : new LineOccurrences();
      if (event.note) options.notice(event.note);
    } else if (event.kind === "idle") {
      await sender.flush(checkpoint());
    } else {
      const line = event.firstInFile ? withoutBom(event.text) : event.text;
      summary.lines++;
      const hit = hitOfLine(line, options.parser, summary);
      if (hit !== undefined && sender.add({ ...hit, id: lineHitId(line, occurrences.next(line)) }, summary.lines)) await sender.flush(checkpoint());
    }
    if (sender.failed) break;
  }
  if (!sender.failed) await sender.flush(checkpoint());
  await sender.finish();
  options.progress(summary);
  return summary;
}

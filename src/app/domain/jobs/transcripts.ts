import { gunzipSync, gzipSync } from "node:zlib";
import type { Transcript, TranscriptEntry } from "../../../shared/job-outcome-schemas.js";
import type { TranscriptRequest } from "../../../shared/runner-schemas.js";
import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";
import { notFound } from "../errors.js";
import { getJob } from "./queries.js";
import { lockJobFor, runOf, type RunnerCaller } from "./runs.js";

/** The most a run's transcript takes in the store, compressed. */
export const MAX_TRANSCRIPT_BYTES = 1_048_576;

/**
 * Keeps a run's transcript (the latest one sent for it), gzip-compressed, for the run's own
 * repository only. Over MAX_TRANSCRIPT_BYTES, entries from the middle go first (the start says
 * what was asked, the end how it ended), and the count says how many.
 */
export async function storeTranscript(tx: Queryable, request: TranscriptRequest, caller: RunnerCaller): Promise<{ stored: boolean; bytes: number; elided: number }> {
  const { job } = await lockJobFor(tx, request.jobId, caller);
  await runOf(tx, job.id, request.runAttempt);
  let entries: TranscriptEntry[] = request.entries;
  let elided = request.elided;
  let compressed = compress(entries, elided);
  while (compressed.length > MAX_TRANSCRIPT_BYTES && entries.length > 2) {
    const drop = Math.max(1, Math.floor(entries.length / 5));
    const from = Math.floor((entries.length - drop) / 2);
    entries = [...entries.slice(0, from), ...entries.slice(from + drop)];
    elided += drop;
    compressed = compress(entries, elided);
  }
  await tx.query(`UPDATE job_runs SET transcript = $3 WHERE job_id = $1 AND run_attempt = $2`, [job.id, request.runAttempt, compressed]);
  return { stored: true, bytes: compressed.length, elided };
}

const compress = (entries: TranscriptEntry[], elided: number) => gzipSync(JSON.stringify({ entries, elided }));

/** A run's transcript; NotFoundError for another project's job, an unknown run, or a run that sent none. */
export async function runTranscript(db: Queryable, projectId: string, jobId: string, attempt: number): Promise<Transcript> {
  await getJob(db, projectId, jobId);
  const row = await queryOne<{ transcript: Uint8Array | null }>(db, `SELECT transcript FROM job_runs WHERE job_id = $1 AND run_attempt = $2`, [jobId, attempt]);
  if (!row?.transcript) throw notFound("Transcript");
  const { entries, elided } = JSON.parse(gunzipSync(row.transcript).toString("utf8")) as { entries: TranscriptEntry[]; elided: number };
  return { attempt, entries, elided };
}

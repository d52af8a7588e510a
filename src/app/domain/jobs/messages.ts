import type { JobMessage as RunnerJobMessage, MessageSource } from "../../../shared/runner-schemas.js";
import type { Queryable } from "../../store/db.js";
import { toIso } from "../../store/db.js";
import { notFound } from "../errors.js";

export interface JobMessage {
  seq: number;
  prompt: string;
  source: MessageSource;
  author: string | null;
  at: string;
}

export async function insertMessage(
  tx: Queryable,
  job: { id: string; project_id: string },
  message: { prompt: string; source: MessageSource; author: string | null; origin?: FollowUpOrigin },
) {
  const origin = message.origin;
  const commentId = origin?.kind === "comment" ? origin.commentId : null;
  const reviewId = origin?.kind === "review" ? origin.reviewId : null;
  const eventKey = origin?.kind === "event" ? origin.key : null;
  await tx.query(
    `INSERT INTO job_messages (job_id, seq, project_id, prompt, source, author, comment_id, review_id, event_key)
     SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8 FROM job_messages WHERE job_id = $1`,
    [job.id, job.project_id, message.prompt, message.source, message.author, commentId, reviewId, eventKey],
  );
}

/** Where a follow-up from GitHub came from: one comment (an inline one names its review), a submitted review, or another event (a merge: `merge:owner/repo#n`). */
export type FollowUpOrigin = { kind: "comment"; commentId: number; reviewId?: number } | { kind: "review"; reviewId: number } | { kind: "event"; key: string };

/**
 * A PR comment or review becomes a message once, however often GitHub delivers it: the one check
 * of that rule. A comment is also taken when the review it belongs to became a message.
 */
export async function isFollowUpTaken(db: Queryable, origin: FollowUpOrigin): Promise<boolean> {
  const seen =
    origin.kind === "review"
      ? await db.query(`SELECT 1 FROM job_messages WHERE review_id = $1`, [origin.reviewId])
      : origin.kind === "event"
        ? await db.query(`SELECT 1 FROM job_messages WHERE event_key = $1`, [origin.key])
        : await db.query(`SELECT 1 FROM job_messages WHERE comment_id = $1 OR review_id = $2`, [origin.commentId, origin.reviewId ?? null]);
  return seen.length > 0;
}

/** Which of these comments already became messages of their own. */
export async function recordedComments(db: Queryable, commentIds: number[]): Promise<Set<number>> {
  if (commentIds.length === 0) return new Set();
  const rows = await db.query<{ comment_id: string | number }>(`SELECT comment_id FROM job_messages WHERE comment_id = ANY($1::bigint[])`, [commentIds]);
  return new Set(rows.map((r) => Number(r.comment_id)));
}

/** A job's messages, first first; NotFoundError when the job is not in this project. */
export async function listJobMessages(db: Queryable, projectId: string, jobId: string): Promise<JobMessage[]> {
  const rows = await db.query<{ seq: number; prompt: string; source: MessageSource; author: string | null; created_at: unknown }>(
    `SELECT seq, prompt, source, author, created_at FROM job_messages WHERE job_id = $1 AND project_id = $2 ORDER BY seq`,
    [jobId, projectId],
  );
  if (rows.length === 0) throw notFound("Job");
  return rows.map((r) => ({ seq: r.seq, prompt: r.prompt, source: r.source, author: r.author, at: toIso(r.created_at) }));
}

/** The instruction each job started with (job lists show it), by job id. */
export async function firstPrompts(db: Queryable, projectId: string, jobIds: string[]): Promise<Map<string, string>> {
  if (jobIds.length === 0) return new Map();
  const rows = await db.query<{ job_id: string; prompt: string }>(
    `SELECT job_id, prompt FROM job_messages WHERE project_id = $1 AND seq = 1 AND job_id = ANY($2::text[])`,
    [projectId, jobIds],
  );
  return new Map(rows.map((r) => [r.job_id, r.prompt]));
}

/** Hands every message no run has taken yet to this run attempt. */
export async function assignQueuedMessages(tx: Queryable, jobId: string, runAttempt: number): Promise<void> {
  await tx.query(`UPDATE job_messages SET run_attempt = $2 WHERE job_id = $1 AND run_attempt IS NULL`, [jobId, runAttempt]);
}

/** Whether a message arrived that no run has taken (it starts the next run). */
export async function hasQueuedMessages(tx: Queryable, jobId: string): Promise<boolean> {
  const queued = await tx.query(`SELECT 1 FROM job_messages WHERE job_id = $1 AND run_attempt IS NULL LIMIT 1`, [jobId]);
  return queued.length > 0;
}

/** Every message of the job for a run, and the seq of the first one this run is the first to see. */
export async function messagesForRun(tx: Queryable, jobId: string, runAttempt: number): Promise<{ messages: RunnerJobMessage[]; newMessagesFrom: number }> {
  const rows = await tx.query<{ seq: number; prompt: string; source: MessageSource; author: string | null; created_at: unknown; run_attempt: number | null }>(
    `SELECT seq, prompt, source, author, created_at, run_attempt FROM job_messages WHERE job_id = $1 ORDER BY seq`,
    [jobId],
  );
  const newMessagesFrom = rows.find((m) => m.run_attempt === runAttempt)?.seq ?? (rows.at(-1)?.seq ?? 0) + 1;
  return {
    messages: rows.map((m) => ({ seq: m.seq, prompt: m.prompt, source: m.source, author: m.author, createdAt: toIso(m.created_at) })),
    newMessagesFrom,
  };
}

/** The instructions in order, for the PR's tracking comment. */
export async function instructionsOf(db: Queryable, jobId: string): Promise<{ prompt: string; source: MessageSource; author: string | null }[]> {
  return db.query<{ prompt: string; source: MessageSource; author: string | null }>(`SELECT prompt, source, author FROM job_messages WHERE job_id = $1 ORDER BY seq`, [jobId]);
}

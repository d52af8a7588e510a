import type { Db } from "../../store/db.js";
import { applyTrigger } from "./commands.js";

/**
 * Fails active jobs with no sign of life (dispatch, claim or heartbeat) for `timeoutMinutes`.
 * Driven from the store, so a restart re-arms it with nothing to remember. Returns the job ids.
 */
export async function failStalledJobs(db: Db, timeoutMinutes: number): Promise<string[]> {
  const stalled = await db.query<{ id: string; run_attempt: number }>(
    `SELECT id, run_attempt FROM jobs WHERE status = 'active' AND waiting_for IS NULL AND last_activity_at < now() - make_interval(mins => $1) ORDER BY last_activity_at LIMIT 100`,
    [timeoutMinutes],
  );
  const failed: string[] = [];
  for (const job of stalled) {
    const moved = await db.transaction(async (tx) => {
      // Re-checked under the row lock: a heartbeat may have arrived since the scan.
      const still = await tx.query(`SELECT 1 FROM jobs WHERE id = $1 AND waiting_for IS NULL AND last_activity_at < now() - make_interval(mins => $2) FOR UPDATE`, [job.id, timeoutMinutes]);
      if (still.length === 0) return null;
      return applyTrigger(tx, {
        jobId: job.id,
        trigger: "run_failed",
        cause: "watchdog",
        runAttempt: job.run_attempt,
        error: `No heartbeat from the runner for ${timeoutMinutes} minutes: the run was lost or is stuck. Send a follow-up message to try again.`,
      });
    });
    if (moved) failed.push(job.id);
  }
  return failed;
}

/**
 * Archives jobs that waited for their plan's approval or an answer longer than their project's
 * limit (`wait_limit_days`), with the reason as `error`. `now` is the clock (the store's in the
 * server; a test's own to move time). Returns the job ids.
 */
export async function archiveExpiredWaits(db: Db, now: Date): Promise<string[]> {
  const expired = await db.query<{ id: string; run_attempt: number; waiting_for: string; wait_limit_days: number }>(
    `SELECT j.id, j.run_attempt, j.waiting_for, p.wait_limit_days FROM jobs j JOIN projects p ON p.id = j.project_id
     WHERE j.waiting_for IS NOT NULL AND j.waiting_since < $1::timestamptz - make_interval(days => p.wait_limit_days)
     ORDER BY j.waiting_since LIMIT 100`,
    [now.toISOString()],
  );
  const archived: string[] = [];
  for (const job of expired) {
    const moved = await db.transaction(async (tx) => {
      // Re-checked under the row lock: an approval or an answer may have arrived since the scan.
      const still = await tx.query(`SELECT 1 FROM jobs WHERE id = $1 AND run_attempt = $2 AND waiting_for IS NOT NULL FOR UPDATE`, [job.id, job.run_attempt]);
      if (still.length === 0) return null;
      const what = job.waiting_for === "approval" ? "approval of its plan" : "an answer to its question";
      return applyTrigger(tx, {
        jobId: job.id,
        trigger: "wait_expired",
        cause: "watchdog",
        runAttempt: job.run_attempt,
        error: `Archived: the job waited more than ${job.wait_limit_days} day(s) for ${what}. Create a new job to start again.`,
      });
    });
    if (moved) archived.push(job.id);
  }
  return archived;
}

import type { Db } from "../../store/db.js";
import { applyTrigger } from "./commands.js";

/**
 * Fails active jobs with no sign of life (dispatch, claim or heartbeat) for `timeoutMinutes`.
 * Driven from the store, so a restart re-arms it with nothing to remember. Returns the job ids.
 */
export async function failStalledJobs(db: Db, timeoutMinutes: number): Promise<string[]> {
  const stalled = await db.query<{ id: string; run_attempt: number }>(
    `SELECT id, run_attempt FROM jobs WHERE status = 'active' AND last_activity_at < now() - make_interval(mins => $1) ORDER BY last_activity_at LIMIT 100`,
    [timeoutMinutes],
  );
  const failed: string[] = [];
  for (const job of stalled) {
    const moved = await db.transaction(async (tx) => {
      // Re-checked under the row lock: a heartbeat may have arrived since the scan.
      const still = await tx.query(`SELECT 1 FROM jobs WHERE id = $1 AND last_activity_at < now() - make_interval(mins => $2) FOR UPDATE`, [job.id, timeoutMinutes]);
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

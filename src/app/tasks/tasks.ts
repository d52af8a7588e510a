import type { Queryable } from "../store/db.js";

/**
 * Queues work for the task worker inside the caller's transaction, so the work exists exactly when
 * the change that needs it is committed. A pending task with the same key is not duplicated: it is
 * marked to run once more after its current run (so the latest state is always acted on).
 */
export async function enqueueTask(tx: Queryable, kind: string, key: string, payload: unknown, delaySeconds = 0): Promise<void> {
  await tx.query(
    `INSERT INTO tasks (kind, dedupe_key, payload, next_try_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))
     ON CONFLICT (dedupe_key) WHERE state = 'pending'
     DO UPDATE SET payload = EXCLUDED.payload, run_again = tasks.claimed_until IS NOT NULL, updated_at = now()`,
    [kind, key, JSON.stringify(payload), delaySeconds],
  );
}

/** A pending task no worker has taken yet is not needed any more (a running one finishes on its own terms). Whether one was skipped. */
export async function skipPendingTask(tx: Queryable, key: string, reason: string): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE tasks SET state = 'skipped', last_error = $2, updated_at = now()
     WHERE dedupe_key = $1 AND state = 'pending' AND (claimed_until IS NULL OR claimed_until < now())
     RETURNING id`,
    [key, reason],
  );
  return rows.length > 0;
}

/** Whether a task with this key is still to run or running (a worker has it). */
export async function isTaskPending(db: Queryable, key: string): Promise<boolean> {
  return (await db.query(`SELECT 1 FROM tasks WHERE dedupe_key = $1 AND state = 'pending' LIMIT 1`, [key])).length > 0;
}

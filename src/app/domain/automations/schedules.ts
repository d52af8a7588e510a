import type { Queryable } from "../../store/db.js";
import { createJob, type JobLimits } from "../jobs/commands.js";
import { openJobOfAutomation } from "../jobs/queries.js";
import { AUTOMATION_KEY_PREFIX, configOf, recordFiring, type AutomationRow } from "./automations.js";
import { nextFiring } from "./cron.js";

export interface Firing {
  automationId: string;
  projectId: string;
  jobId: string | null;
  outcome: string;
}

/**
 * Fires one due schedule, if any: claims its row (`SKIP LOCKED`, so instances scanning together
 * each take another) and moves it to its next time in the same transaction as the job it starts,
 * so a firing happens once across every instance. A schedule whose last job is still open starts
 * none (docs/architecture.md, "Automations"). A firing that fails (the rate limit, or anything
 * else) is rolled back to a savepoint and recorded, and the schedule goes on: one schedule cannot
 * hold up the others. Returns null when nothing is due.
 */
export async function fireDueSchedule(tx: Queryable, now: Date, limits: JobLimits): Promise<Firing | null> {
  const [row] = await tx.query<AutomationRow>(
    `SELECT * FROM automations WHERE kind = 'schedule' AND NOT paused AND next_run_at <= $1 ORDER BY next_run_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [now],
  );
  if (!row) return null;
  let next: Date | null = null;
  let jobId: string | null = null;
  let outcome: string;
  await tx.query("SAVEPOINT firing");
  try {
    const config = configOf(row);
    if (config.kind !== "schedule") throw new Error(`a ${config.kind} automation is not a schedule`);
    next = nextFiring(config.cron, now);
    const open = await openJobOfAutomation(tx, row.id);
    if (open) outcome = `skipped: job ${open.id} is still open${open.prUrl ? ` (${open.prUrl})` : ""}`;
    else {
      const { job, replayed } = await createJob(
        tx,
        {
          projectId: row.project_id,
          prompt: config.instruction,
          idempotencyKey: `${AUTOMATION_KEY_PREFIX}schedule ${row.id} ${new Date(row.next_run_at as string).toISOString().slice(0, 16)}`,
          source: "automation",
          trigger: { type: "schedule" },
          automationId: row.id,
        },
        limits,
      );
      jobId = replayed ? null : job.id;
      outcome = replayed ? `skipped: job ${job.id} already fired for this minute` : `started job ${job.id}`;
    }
    await tx.query("RELEASE SAVEPOINT firing");
  } catch (error) {
    await tx.query("ROLLBACK TO SAVEPOINT firing");
    jobId = null;
    outcome = `skipped: ${error instanceof Error ? error.message : String(error)}`;
  }
  // A schedule whose cron no longer reads (it was checked when made) is paused rather than retried each second.
  await recordFiring(tx, row.id, next === null ? `${outcome}; paused` : outcome, now, next === null ? { pause: true } : { nextRunAt: next });
  return { automationId: row.id, projectId: row.project_id, jobId, outcome };
}

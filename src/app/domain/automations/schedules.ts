import type { Queryable } from "../../store/db.js";
import { createJob, type JobLimits } from "../jobs/commands.js";
import { openJobOfAutomation } from "../jobs/queries.js";
import { DomainError } from "../errors.js";
import { configOf, recordFiring, type AutomationRow } from "./automations.js";
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
 * none (docs/architecture.md, "Automations"). Returns null when nothing is due.
 */
export async function fireDueSchedule(tx: Queryable, now: Date, limits: JobLimits): Promise<Firing | null> {
  const [row] = await tx.query<AutomationRow>(
    `SELECT * FROM automations WHERE kind = 'schedule' AND NOT paused AND next_run_at <= $1 ORDER BY next_run_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [now],
  );
  if (!row) return null;
  const config = configOf(row);
  if (config.kind !== "schedule") throw new Error(`automation ${row.id} is a ${config.kind}, not a schedule`);
  const next = nextFiring(config.cron, now);
  const open = await openJobOfAutomation(tx, row.id);
  let jobId: string | null = null;
  let outcome: string;
  if (open) outcome = `skipped: job ${open.id} is still open${open.prUrl ? ` (${open.prUrl})` : ""}`;
  else {
    try {
      const { job } = await createJob(
        tx,
        {
          projectId: row.project_id,
          prompt: config.instruction,
          idempotencyKey: `schedule:${row.id}:${toIsoMinute(row.next_run_at)}`,
          source: "automation",
          trigger: { type: "schedule" },
          automationId: row.id,
        },
        limits,
      );
      jobId = job.id;
      outcome = `started job ${job.id}`;
    } catch (error) {
      // A refusal (rate limit, a model no longer allowed) skips this firing; the schedule goes on.
      if (!(error instanceof DomainError)) throw error;
      outcome = `skipped: ${error.message}`;
    }
  }
  await recordFiring(tx, row.id, outcome, now, next);
  return { automationId: row.id, projectId: row.project_id, jobId, outcome };
}

const toIsoMinute = (value: unknown) => new Date(value as string | Date).toISOString().slice(0, 16);

import { z } from "zod";
import { applyTrigger, recordEvent } from "../domain/jobs.js";
import type { Queryable } from "../store/db.js";
import { queryOne } from "../store/db.js";
import type { TaskHandler, TaskOutcome } from "../tasks/task-worker.js";
import type { Dispatcher } from "./dispatcher.js";
import type { DispatchTaskPayload } from "../domain/jobs.js";

const payloadSchema = z.object({ jobId: z.string(), runAttempt: z.int() }) satisfies z.ZodType<DispatchTaskPayload>;

/** The `dispatch` task: start one run of a job in its repository, if the job still wants it. */
export function dispatchTask(
  db: Queryable,
  dispatcher: Dispatcher,
  /** Runs in the transaction that records a successful dispatch (e.g. to queue a follow-up check). */
  afterDispatch?: (tx: Queryable, dispatched: { jobId: string; runAttempt: number }) => Promise<void>,
): TaskHandler {
  return {
    async run(payload): Promise<TaskOutcome> {
      const { jobId, runAttempt } = payloadSchema.parse(payload);
      const job = await queryOne<{ status: string; run_attempt: number; repo_full_name: string; installation_id: string | number | null; installation_suspended: boolean }>(
        db,
        `SELECT j.status, j.run_attempt, p.repo_full_name, p.installation_id, p.installation_suspended
         FROM jobs j JOIN projects p ON p.id = j.project_id WHERE j.id = $1`,
        [jobId],
      );
      if (!job || job.status !== "active" || job.run_attempt !== runAttempt) return { skipped: "the job moved on" };
      return dispatcher.dispatch({
        jobId,
        runAttempt,
        repoFullName: job.repo_full_name,
        installationId: job.installation_id === null ? null : Number(job.installation_id),
        installationSuspended: job.installation_suspended,
      });
    },
    async onDone(tx, payload) {
      const { jobId, runAttempt } = payloadSchema.parse(payload);
      await recordEvent(tx, jobId, "dispatched", "active", "active", "dispatcher", `run attempt ${runAttempt}`);
      await afterDispatch?.(tx, { jobId, runAttempt });
    },
    async onGiveUp(tx, payload, error) {
      const { jobId, runAttempt } = payloadSchema.parse(payload);
      await applyTrigger(tx, { jobId, trigger: "run_failed", cause: "dispatcher", error, runAttempt });
    },
  };
}

import { z } from "zod";
import { applyTrigger, recordDispatched } from "../domain/jobs/commands.js";
import { DISPATCH_TASK, type DispatchTaskPayload } from "../domain/jobs/job-tasks.js";
import { jobForDispatch } from "../domain/jobs/queries.js";
import type { Queryable } from "../store/db.js";
import { defineTask, type TaskDefinition } from "../tasks/task-definition.js";
import type { Dispatcher } from "./dispatcher.js";

const payloadSchema = z.object({ jobId: z.string(), runAttempt: z.int() }) satisfies z.ZodType<DispatchTaskPayload>;

/** The `dispatch` task: start one run of a job in its repository, if the job still wants it. */
export function dispatchTask(
  db: Queryable,
  dispatcher: Dispatcher,
  /** Runs in the transaction that records a successful dispatch (e.g. to queue a follow-up check). */
  afterDispatch?: (tx: Queryable, dispatched: DispatchTaskPayload) => Promise<void>,
): TaskDefinition {
  return defineTask({
    kind: DISPATCH_TASK,
    payload: payloadSchema,
    async run({ jobId, runAttempt }) {
      const job = await jobForDispatch(db, jobId, runAttempt);
      if (!job) return { skipped: "the job moved on" };
      return dispatcher.dispatch({
        jobId,
        runAttempt,
        projectId: job.projectId,
        forge: job.forge,
        baseRef: job.baseRef,
        repoName: job.repoName,
        installationId: job.installationId,
        installationSuspended: job.installationSuspended,
      });
    },
    async onDone(tx, { jobId, runAttempt }, detail) {
      await recordDispatched(tx, jobId, runAttempt, detail);
      await afterDispatch?.(tx, { jobId, runAttempt });
    },
    async onGiveUp(tx, { jobId, runAttempt }, error) {
      await applyTrigger(tx, { jobId, trigger: "run_failed", cause: "dispatcher", error, runAttempt });
    },
  });
}

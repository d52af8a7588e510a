import type { Queryable } from "../../store/db.js";
import { enqueueTask } from "../../tasks/tasks.js";

/** Background work a job change needs, queued in the same transaction as the change (docs/architecture.md). */
export const DISPATCH_TASK = "dispatch";
export const TRACKING_TASK = "tracking_comment";
/** The first week after a merge is over: its result goes to the webhook and the tracking comment (impact/impact-notice-task.ts). */
export const IMPACT_NOTICE_TASK = "impact_notice";

export interface DispatchTaskPayload {
  jobId: string;
  runAttempt: number;
}

/** Kind, dedupe key and payload of the task that dispatches one run: one definition for both ways it is queued. */
export function dispatchTaskRow(jobId: string, runAttempt: number): [kind: string, key: string, payload: DispatchTaskPayload] {
  return [DISPATCH_TASK, `dispatch:${jobId}:${runAttempt}`, { jobId, runAttempt }];
}

export async function enqueueDispatch(tx: Queryable, jobId: string, runAttempt: number) {
  await enqueueTask(tx, ...dispatchTaskRow(jobId, runAttempt));
}

/** The job's PR comment shows its state: every change of that state queues an update (this is the one place). */
export async function queueTrackingUpdate(tx: Queryable, job: { id: string; pr_number: number | null }): Promise<void> {
  if (job.pr_number !== null) await enqueueTask(tx, TRACKING_TASK, `tracking:${job.id}`, { jobId: job.id });
}

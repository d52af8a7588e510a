import { z } from "zod";
import type { Analytics } from "../analytics/analytics.js";
import { IMPACT_NOTICE_TASK } from "../domain/jobs/job-tasks.js";
import { jobWithMergeById, recordImpactNotice } from "../domain/jobs/merges.js";
import type { Db } from "../store/db.js";
import { defineTask, type TaskDefinition } from "../tasks/task-definition.js";
import { impactNotice, measureJob } from "./job-impact.js";

/** The notice tells the first week's result, so only that window is measured. */
const NOTICE_DAYS = 7;

/** Tried again when it ran before the week was over (an instance whose clock is behind): soon, then less often. */
const NOT_OVER_RETRY_MS = [600_000, 1_800_000, 3_600_000, 6 * 3_600_000, 24 * 3_600_000] as const;

/**
 * The `impact_notice` task, queued at the merge for just after the first week's end
 * (domain/jobs/merges.ts): counts what was accepted until then, measures the week, and records
 * the result once, which queues the `job.impact` webhook and the tracking comment's line.
 */
export function impactNoticeTask(db: Db, analytics: Analytics, clock: () => number = Date.now): TaskDefinition {
  return defineTask({
    kind: IMPACT_NOTICE_TASK,
    payload: z.object({ jobId: z.string() }),
    retryDelaysMs: NOT_OVER_RETRY_MS,
    async run({ jobId }) {
      const merged = await jobWithMergeById(db, jobId);
      if (merged === null) return { skipped: "the job is gone" };
      const { projectId, job, mergedAt } = merged;
      const { report: impact } = await analytics.fresh((store) => measureJob(store, projectId, job, mergedAt, clock(), [NOTICE_DAYS]));
      if (impact.state !== "measured") return { skipped: impact.reason ?? impact.state };
      const notice = impactNotice(impact);
      if (!notice) return { ok: false, retryable: true, error: "the first week after the merge is not over yet" };
      const recorded = await db.transaction((tx) => recordImpactNotice(tx, projectId, jobId, notice));
      return recorded ? { ok: true } : { skipped: "announced already" };
    },
  });
}

import { z } from "zod";
import { applyTrigger } from "../domain/jobs.js";
import type { Db } from "../store/db.js";
import { queryOne } from "../store/db.js";
import type { TaskHandler } from "../tasks/task-worker.js";
import type { GitHubApi } from "./github-api.js";
import { DISPATCH_EVENT_TYPE } from "./github-dispatcher.js";

export const WORKFLOW_CHECK_TASK = "workflow_check";

const payloadSchema = z.object({ jobId: z.string(), runAttempt: z.int() });

/**
 * A dispatch GitHub accepted starts nothing when the repository has no Inkwell workflow. Some time
 * after a dispatch that no run has claimed, this looks for one and fails the job, saying so, when
 * there is none. Healthy setups (the run claimed in time) cost no GitHub call.
 */
export function workflowCheckTask(db: Db, github: GitHubApi): TaskHandler {
  return {
    async run(payload) {
      const { jobId, runAttempt } = payloadSchema.parse(payload);
      const job = await queryOne<{ status: string; run_attempt: number; repo_full_name: string; installation_id: string | number | null; claimed: boolean }>(
        db,
        `SELECT j.status, j.run_attempt, p.repo_full_name, p.installation_id,
                EXISTS (SELECT 1 FROM job_runs r WHERE r.job_id = j.id AND r.run_attempt = $2) AS claimed
         FROM jobs j JOIN projects p ON p.id = j.project_id WHERE j.id = $1`,
        [jobId, runAttempt],
      );
      if (!job || job.status !== "active" || job.run_attempt !== runAttempt || job.claimed || job.installation_id === null) {
        return { skipped: "the run started or the job moved on" };
      }
      const workflows = await github.workflowsFor(Number(job.installation_id), job.repo_full_name, DISPATCH_EVENT_TYPE);
      if (workflows.length > 0) return { skipped: `workflow present: ${workflows.join(", ")}` };
      await db.transaction((tx) =>
        applyTrigger(tx, {
          jobId,
          trigger: "run_failed",
          cause: "github",
          runAttempt,
          error:
            `No workflow in ${job.repo_full_name} runs on repository_dispatch "${DISPATCH_EVENT_TYPE}", so the job never started. ` +
            'Add .github/workflows/inkwell.yml (README, "Install on your docs repo"), then send a follow-up message to this job.',
        }),
      );
      return { ok: true };
    },
  };
}

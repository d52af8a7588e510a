import { z } from "zod";
import { applyTrigger } from "../../domain/jobs/commands.js";
import { jobWithUnclaimedRun } from "../../domain/jobs/queries.js";
import type { Db } from "../../store/db.js";
import { defineTask, type TaskDefinition } from "../../tasks/task-definition.js";
import type { GitHubApi } from "./api.js";
import { DISPATCH_EVENT_TYPE } from "./dispatcher.js";

export const WORKFLOW_CHECK_TASK = "workflow_check";

const payloadSchema = z.object({ jobId: z.string(), runAttempt: z.int() });

/**
 * A dispatch GitHub accepted starts nothing when the repository has no Inkwell workflow. Some time
 * after a dispatch that no run has claimed, this looks for one and fails the job, saying so, when
 * there is none. Healthy setups (the run claimed in time) cost no GitHub call.
 */
export function workflowCheckTask(db: Db, github: GitHubApi): TaskDefinition {
  return defineTask({
    kind: WORKFLOW_CHECK_TASK,
    payload: payloadSchema,
    async run({ jobId, runAttempt }) {
      const job = await jobWithUnclaimedRun(db, jobId, runAttempt);
      if (!job || job.installationId === null) return { skipped: "the run started or the job moved on" };
      const workflows = await github.workflowsFor(job.installationId, job.repoName, DISPATCH_EVENT_TYPE);
      if (workflows.length > 0) return { skipped: `workflow present: ${workflows.join(", ")}` };
      await db.transaction((tx) =>
        applyTrigger(tx, {
          jobId,
          trigger: "run_failed",
          cause: "github",
          runAttempt,
          error:
            `No workflow in ${job.repoName} runs on repository_dispatch "${DISPATCH_EVENT_TYPE}", so the job never started. ` +
            'Add .github/workflows/inkwell.yml (docs/github-app.md, "Install on your docs repo"), then send a follow-up message to this job.',
        }),
      );
      return { ok: true };
    },
  });
}

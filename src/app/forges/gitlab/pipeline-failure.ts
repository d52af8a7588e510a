import { applyTrigger } from "../../domain/jobs/commands.js";
import { jobInRepository, runOfDispatch, runClaimedBy } from "../../domain/jobs/queries.js";
import type { Db } from "../../store/db.js";
import type { TaskOutcome } from "../../tasks/task-definition.js";
import type { GitLabEvent } from "./webhook-events.js";

/**
 * A pipeline that ended failed, canceled or skipped without its job reporting: the run failed now,
 * not when the watchdog gives up on it (GitHub's failed workflow run, in GitLab's words). The
 * pipeline is the job's when its job claimed with it, or when it is the one the dispatch of the
 * job's current run attempt started; a run that reported stands.
 */
export async function failRunOfPipeline(db: Db, event: Extract<GitLabEvent, { type: "pipeline_failed" }>, repoName: string): Promise<TaskOutcome> {
  const claimed = await runClaimedBy(db, event.pipelineId);
  // Pipeline ids and GitHub's workflow run ids share the runs' column: the job must be this project's.
  const claimedHere = claimed && (await jobInRepository(db, claimed.jobId, repoName)) ? claimed : null;
  const run = claimedHere ?? (await runOfDispatch(db, event.projectId, `pipeline ${event.pipelineId}`));
  if (!run || run.reported) return { skipped: "no unreported run of a job" };
  await db.transaction((tx) =>
    applyTrigger(tx, {
      jobId: run.jobId,
      trigger: "run_failed",
      cause: "gitlab",
      runAttempt: run.runAttempt,
      error: `The pipeline ended "${event.status}" without reporting back: ${event.url}`,
    }),
  );
  return { ok: true };
}

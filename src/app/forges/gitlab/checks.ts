import { requireGitLabConnection } from "../../domain/gitlab-connections.js";
import type { ChecksForge, FoundCheck } from "../checks.js";
import type { Queryable } from "../../store/db.js";
import { GitLabApi, type PipelineRef } from "./api.js";

/** Pipeline statuses still on their way (GitLab's API names; `canceling` too). */
const RUNNING = new Set(["created", "waiting_for_resource", "waiting_for_callback", "preparing", "pending", "running", "scheduled", "canceling"]);
/** Ended without anything for the agent to fix: passed, nothing ran, or a person's manual step is next. */
const PASSED = new Set(["success", "skipped", "manual"]);

/** The newest pipeline of each ref on the commit (a branch's, a merge request's): a retried or re-run one replaces the older. */
function newestPerRef(pipelines: PipelineRef[]): PipelineRef[] {
  const newest = new Map<string, PipelineRef>();
  for (const pipeline of pipelines) if ((newest.get(pipeline.ref)?.id ?? -1) < pipeline.id) newest.set(pipeline.ref, pipeline);
  return [...newest.values()];
}

/**
 * GitLab's checks on a job's head: the project's own pipelines on that commit (branch pipelines and
 * merge request pipelines), read with the project's access token, which already reads pipelines and
 * job logs. A failed pipeline is its failed jobs (a job allowed to fail is not one), each with its
 * trace; Inkwell's own agent pipelines for the job are left out (they run on the base branch anyway).
 */
export function gitLabChecks(db: Queryable): ChecksForge {
  const apiOf = async (projectId: string) => {
    const connection = await requireGitLabConnection(db, projectId);
    return { api: new GitLabApi(connection.baseUrl, connection.accessToken), id: connection.gitlabProjectId };
  };
  return {
    async checksOn(head) {
      const { api, id } = await apiOf(head.job.projectId);
      // Inkwell's own pipelines: the ones that claimed, and the ones its dispatches started (`pipeline <id>`, dispatcher.ts).
      const own = new Set([...head.ownRuns, ...head.dispatched.flatMap((started) => /^pipeline (\d+)$/.exec(started)?.slice(1).map(Number) ?? [])]);
      const pipelines = newestPerRef((await api.pipelinesOn(id, head.sha)).filter((pipeline) => !own.has(pipeline.id)));
      const found: FoundCheck[] = [];
      for (const pipeline of pipelines) {
        const name = `pipeline #${pipeline.id}`;
        if (RUNNING.has(pipeline.status) || PASSED.has(pipeline.status)) {
          found.push({ name, url: pipeline.webUrl, status: RUNNING.has(pipeline.status) ? "pending" : "passed" });
          continue;
        }
        const jobs = pipeline.status === "failed" ? await api.failedJobs(id, pipeline.id) : [];
        if (jobs.length === 0) found.push({ name, url: pipeline.webUrl, status: "failed", log: async () => `The pipeline ended "${pipeline.status}" without a failed job to show.` });
        for (const job of jobs) found.push({ name: job.name, url: job.webUrl, status: "failed", log: () => api.jobTrace(id, job.id) });
      }
      return found;
    },
    async markReady(job) {
      if (job.changeNumber === null) return { skipped: "no merge request" };
      const { api, id } = await apiOf(job.projectId);
      return api.markMergeRequestReady(id, job.changeNumber);
    },
  };
}

import type { AgentJob } from "../../../shared/api-schemas.js";
import type { Queryable } from "../../store/db.js";
import { addMessage, createJob, moveSourceContext, type JobLimits } from "../jobs/commands.js";
import { openJobOfAutomation, openJobOfTrigger } from "../jobs/queries.js";
import type { SourceContext } from "../jobs/source-context.js";
import { lockProject } from "../projects.js";
import { configOf, recordFiring, type AutomationRow } from "./automations.js";

/** What an automation's event did: a new job, a follow-up on its open one, or nothing (and why). */
export type Started = { job: AgentJob; followedUp: boolean } | { skipped: string };

/** The automations of one kind a repository's events go to: the project's own (issues), or every project it feeds (source). Paused ones are left out. */
export async function automationsFor(db: Queryable, kind: "issues" | "source", repoFullName: string): Promise<AutomationRow[]> {
  const repo = repoFullName.toLowerCase();
  return kind === "issues"
    ? db.query<AutomationRow>(`SELECT a.* FROM automations a JOIN projects p ON p.id = a.project_id WHERE p.repo_full_name = $1 AND a.kind = 'issues' AND NOT a.paused`, [repo])
    : db.query<AutomationRow>(`SELECT * FROM automations WHERE source_repo = $1 AND kind = 'source' AND NOT paused ORDER BY project_id`, [repo]);
}

export interface IssueRequest {
  url: string;
  prompt: string;
  /** Who labelled or commented (checked for write permission before). */
  author: string;
  /** The comment that mentioned the App: taken once, however often GitHub delivers it. */
  commentId?: number;
}

/**
 * An issue of the docs repository starts a job with the issue as its instruction. While that job
 * is not archived, labelling again starts nothing and a mention becomes its follow-up.
 */
export async function startIssueJob(tx: Queryable, automation: AutomationRow, request: IssueRequest, limits: JobLimits, now: Date): Promise<Started> {
  await lockProject(tx, automation.project_id);
  const open = await openJobOfTrigger(tx, automation.project_id, "issue", request.url);
  const origin = request.commentId === undefined ? undefined : { kind: "comment" as const, commentId: request.commentId };
  let started: Started;
  if (open && !origin) started = { skipped: `job ${open.id} is already working on this issue` };
  else if (open && origin) {
    const added = await addMessage(tx, { projectId: automation.project_id, jobId: open.id, prompt: request.prompt, source: "automation", author: request.author, origin }, limits);
    started = added.alreadyTaken ? { skipped: "comment already taken" } : { job: added.job, followedUp: true };
  } else {
    const { job, replayed } = await createJob(
      tx,
      {
        projectId: automation.project_id,
        prompt: request.prompt,
        idempotencyKey: origin ? `issue-comment:${origin.commentId}` : null,
        origin,
        source: "automation",
        author: request.author,
        trigger: { type: "issue", url: request.url },
        automationId: automation.id,
      },
      limits,
    );
    started = replayed ? { skipped: "comment already taken" } : { job, followedUp: false };
  }
  await recordFiring(tx, automation.id, outcomeOf(started), now);
  return started;
}

export interface MergeRequest {
  url: string;
  /** `owner/repo#n`: a merge is taken once. */
  key: string;
  prompt: string;
  author: string;
  source: SourceContext;
}

/**
 * A merge in a source repository starts a job that may read the repository at the merge commit;
 * while the automation's last job is open (running, or its PR not merged or closed) and the
 * automation follows up, the merge becomes that job's next message and moves its source commit.
 */
export async function startSourceJob(tx: Queryable, automation: AutomationRow, request: MergeRequest, limits: JobLimits, now: Date): Promise<Started> {
  await lockProject(tx, automation.project_id);
  const config = configOf(automation);
  const open = config.kind === "source" && config.followUps ? await openJobOfAutomation(tx, automation.id) : null;
  const origin = { kind: "event" as const, key: `merge:${request.key}` };
  let started: Started;
  if (open) {
    const added = await addMessage(tx, { projectId: automation.project_id, jobId: open.id, prompt: request.prompt, source: "automation", author: request.author, origin }, limits);
    if (!added.alreadyTaken) await moveSourceContext(tx, open.id, request.source);
    started = added.alreadyTaken ? { skipped: "merge already taken" } : { job: added.job, followedUp: true };
  } else {
    const { job, replayed } = await createJob(
      tx,
      {
        projectId: automation.project_id,
        prompt: request.prompt,
        idempotencyKey: `merge:${request.key}`,
        origin,
        source: "automation",
        author: request.author,
        trigger: { type: "source-merge", url: request.url },
        automationId: automation.id,
        sourceContext: request.source,
      },
      limits,
    );
    started = replayed ? { skipped: "merge already taken" } : { job, followedUp: false };
  }
  await recordFiring(tx, automation.id, outcomeOf(started), now);
  return started;
}

const outcomeOf = (started: Started) => ("skipped" in started ? `skipped: ${started.skipped}` : started.followedUp ? `followed up on job ${started.job.id}` : `started job ${started.job.id}`);

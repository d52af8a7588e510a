import type { AgentJob } from "../../../shared/api-schemas.js";
import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";
import { addMessage, createJob, moveSourceContext, type JobLimits } from "../jobs/commands.js";
import { isFollowUpTaken, type FollowUpOrigin } from "../jobs/messages.js";
import { openJobOfAutomation, openJobOfTrigger } from "../jobs/queries.js";
import type { SourceContext } from "../jobs/source-context.js";
import { lockProject } from "../projects.js";
import { AUTOMATION_KEY_PREFIX, configOf, recordFiring, type AutomationRow } from "./automations.js";

/** What an automation's event did: a new job, a follow-up on its open one, or nothing (and why). */
export type Started = { job: AgentJob; followedUp: boolean } | { skipped: string };

/** The automations of one kind a repository's events go to: the project's own (issues), or every project it feeds (source). Paused ones are left out. */
export async function automationsFor(db: Queryable, kind: "issues" | "source", repoName: string): Promise<AutomationRow[]> {
  const repo = repoName.toLowerCase();
  return kind === "issues"
    ? db.query<AutomationRow>(`SELECT a.* FROM automations a JOIN projects p ON p.id = a.project_id WHERE p.repo_full_name = $1 AND a.kind = 'issues' AND NOT a.paused`, [repo])
    : db.query<AutomationRow>(`SELECT * FROM automations WHERE source_repo = $1 AND kind = 'source' AND NOT paused ORDER BY project_id`, [repo]);
}

/**
 * Locks are taken automation, then project, then job (as a schedule's firing and a delete do), and
 * the automation is read again under its lock: paused or deleted since it was looked up, it starts nothing.
 */
async function lockAutomation(tx: Queryable, automation: AutomationRow): Promise<AutomationRow | undefined> {
  const row = await queryOne<AutomationRow>(tx, `SELECT * FROM automations WHERE id = $1 AND NOT paused FOR UPDATE`, [automation.id]);
  if (row) await lockProject(tx, row.project_id);
  return row;
}

interface Request {
  url: string;
  prompt: string;
  /** Who labelled, commented or merged. */
  author: string;
}

/**
 * A new job, or the next message of the automation's open one (`open`); an event with an `origin`
 * is taken once per automation, however often GitHub delivers it and whatever became of its job.
 */
async function startOrFollowUp(
  tx: Queryable,
  automation: AutomationRow,
  request: Request & { trigger: "issue" | "source-merge"; sourceContext?: SourceContext },
  origin: Extract<FollowUpOrigin, { kind: "comment" } | { kind: "event" }> | undefined,
  open: { id: string } | null,
  limits: JobLimits,
): Promise<Started> {
  if (origin && (await isFollowUpTaken(tx, origin))) return { skipped: "already taken" };
  if (open) {
    const added = await addMessage(tx, { projectId: automation.project_id, jobId: open.id, prompt: request.prompt, source: "automation", author: request.author, origin }, limits);
    if (added.alreadyTaken) return { skipped: "already taken" };
    if (request.sourceContext) await moveSourceContext(tx, open.id, request.sourceContext);
    return { job: added.job, followedUp: true };
  }
  const { job } = await createJob(
    tx,
    {
      projectId: automation.project_id,
      prompt: request.prompt,
      idempotencyKey: null,
      origin,
      source: "automation",
      author: request.author,
      trigger: { type: request.trigger, url: request.url },
      automationId: automation.id,
      sourceContext: request.sourceContext,
    },
    limits,
  );
  return { job, followedUp: false };
}

export interface IssueRequest extends Request {
  /** The comment that mentioned the App (GitHub). */
  commentId?: number;
  /** The note that mentioned the agent, where note ids are another forge's (GitLab: `gitlab-note:<project>:<id>`). */
  eventKey?: string;
}

/**
 * An issue of the docs repository starts a job with the issue as its instruction. While that job
 * is open (running, or its PR not merged or closed), labelling again starts nothing and a mention
 * becomes its follow-up.
 */
export async function startIssueJob(tx: Queryable, automation: AutomationRow, request: IssueRequest, limits: JobLimits, now: Date): Promise<Started> {
  const locked = await lockAutomation(tx, automation);
  if (!locked) return { skipped: "the automation was paused or deleted" };
  const open = await openJobOfTrigger(tx, locked.project_id, "issue", request.url);
  const origin = request.commentId !== undefined ? { kind: "comment" as const, commentId: request.commentId } : request.eventKey ? { kind: "event" as const, key: request.eventKey } : undefined;
  let started: Started;
  if (!origin) {
    started = open
      ? { skipped: `job ${open.id} is already working on this issue` }
      : await startOrFollowUp(tx, locked, { ...request, trigger: "issue" }, undefined, null, limits);
  } else {
    started = await startOrFollowUp(tx, locked, { ...request, trigger: "issue" }, origin, open, limits);
  }
  await recordFiring(tx, locked.id, outcomeOf(started), now);
  return started;
}

export interface MergeRequest extends Request {
  /** `owner/repo#n`: a merge is taken once per automation. */
  key: string;
  /** What the run may read of the source (a GitHub source, through the App); none for a GitLab source project. */
  source?: SourceContext | undefined;
}

/**
 * A merge in a source repository starts a job that may read the repository at the merge commit;
 * while the automation's last job is open and the automation follows up, the merge becomes that
 * job's next message and moves its source commit.
 */
export async function startSourceJob(tx: Queryable, automation: AutomationRow, request: MergeRequest, limits: JobLimits, now: Date): Promise<Started> {
  const locked = await lockAutomation(tx, automation);
  if (!locked) return { skipped: "the automation was paused or deleted" };
  const config = configOf(locked);
  const open = config.kind === "source" && config.followUps ? await openJobOfAutomation(tx, locked.id) : null;
  const origin = { kind: "event" as const, key: `${AUTOMATION_KEY_PREFIX}merge ${locked.id} ${request.key}` };
  const started = await startOrFollowUp(tx, locked, { ...request, trigger: "source-merge", ...(request.source ? { sourceContext: request.source } : {}) }, origin, open, limits);
  await recordFiring(tx, locked.id, outcomeOf(started), now);
  return started;
}

const outcomeOf = (started: Started) => ("skipped" in started ? `skipped: ${started.skipped}` : started.followedUp ? `followed up on job ${started.job.id}` : `started job ${started.job.id}`);

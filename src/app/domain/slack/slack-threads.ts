import type { WebhookEvent } from "../../../shared/job-vocabulary.js";
import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";
import { enqueueTask } from "../../tasks/tasks.js";

// A Slack thread that is a job (docs/slack.md, "The thread is the job"): where its one status
// message lives and the steps the job's events announced, which the `slack_status` task shows.

export const SLACK_STATUS_TASK = "slack_status";

export interface SlackStep {
  event: WebhookEvent;
  at: string;
  attempt?: number | undefined;
  outcome?: string | undefined;
}

export interface SlackThread {
  jobId: string;
  projectId: string;
  teamId: string;
  channelId: string;
  threadTs: string;
  statusTs: string | null;
  steps: SlackStep[];
  /** How many steps said in the thread as a reply of their own (a failure, a question) were said. */
  announced: number;
}

interface ThreadRow {
  job_id: string;
  project_id: string;
  team_id: string;
  channel_id: string;
  thread_ts: string;
  status_ts: string | null;
  steps: string;
  announced: number;
}

const toThread = (row: ThreadRow): SlackThread => ({
  jobId: row.job_id,
  projectId: row.project_id,
  teamId: row.team_id,
  channelId: row.channel_id,
  threadTs: row.thread_ts,
  statusTs: row.status_ts,
  steps: JSON.parse(row.steps) as SlackStep[],
  announced: Number(row.announced),
});

const COLUMNS = "job_id, project_id, team_id, channel_id, thread_ts, status_ts, steps, announced";

/** The status message's update, queued after the change that makes it due; one pending per job. */
export const queueSlackStatus = (tx: Queryable, jobId: string) => enqueueTask(tx, SLACK_STATUS_TASK, `slack-status:${jobId}`, { jobId });

/** Links a new job to the thread it was asked for in, and queues its first status message. */
export async function linkSlackThread(tx: Queryable, link: { jobId: string; projectId: string; teamId: string; channelId: string; threadTs: string }): Promise<void> {
  // The job's creation was announced before the link existed: it is the thread's first step.
  const created: SlackStep[] = [{ event: "job.created", at: new Date().toISOString() }];
  await tx.query(`INSERT INTO slack_threads (job_id, project_id, team_id, channel_id, thread_ts, steps) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (job_id) DO NOTHING`, [
    link.jobId,
    link.projectId,
    link.teamId,
    link.channelId,
    link.threadTs,
    JSON.stringify(created),
  ]);
  await queueSlackStatus(tx, link.jobId);
}

/** The job a thread is (null: a thread no job was started in). */
export async function slackThreadAt(db: Queryable, teamId: string, channelId: string, threadTs: string): Promise<SlackThread | null> {
  const row = await queryOne<ThreadRow>(db, `SELECT ${COLUMNS} FROM slack_threads WHERE team_id = $1 AND channel_id = $2 AND thread_ts = $3`, [teamId, channelId, threadTs]);
  return row ? toThread(row) : null;
}

export async function slackThreadOfJob(db: Queryable, jobId: string): Promise<SlackThread | null> {
  const row = await queryOne<ThreadRow>(db, `SELECT ${COLUMNS} FROM slack_threads WHERE job_id = $1`, [jobId]);
  return row ? toThread(row) : null;
}

/** The status message once posted: later steps edit it. */
export async function recordSlackStatusMessage(tx: Queryable, jobId: string, statusTs: string): Promise<void> {
  await tx.query(`UPDATE slack_threads SET status_ts = $2 WHERE job_id = $1`, [jobId, statusTs]);
}

/** The steps up to `announced` were said in the thread. */
export async function recordSlackAnnounced(tx: Queryable, jobId: string, announced: number): Promise<void> {
  await tx.query(`UPDATE slack_threads SET announced = GREATEST(announced, $2) WHERE job_id = $1`, [jobId, announced]);
}

/**
 * Called with every job event (`queueJobEvent`, in the transaction that moves the job): a job that
 * is a Slack thread keeps the step and queues its status message's update.
 */
export async function noteSlackStep(tx: Queryable, jobId: string, step: SlackStep): Promise<void> {
  const row = await queryOne<{ steps: string }>(tx, `SELECT steps FROM slack_threads WHERE job_id = $1 FOR UPDATE`, [jobId]);
  if (!row) return;
  const steps = [...(JSON.parse(row.steps) as SlackStep[]), step];
  await tx.query(`UPDATE slack_threads SET steps = $2 WHERE job_id = $1`, [jobId, JSON.stringify(steps)]);
  await queueSlackStatus(tx, jobId);
}

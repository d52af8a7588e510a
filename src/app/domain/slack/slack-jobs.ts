import type { AgentJob } from "../../../shared/api-schemas.js";
import { addMessage, createJob } from "../jobs/commands.js";
import type { JobEntrance } from "../jobs/entrance.js";
import type { FollowUpOrigin } from "../jobs/messages.js";
import { linkSlackThread } from "./slack-threads.js";

// The way in for a Slack thread (docs/slack.md): the same job commands as REST, the dashboard and
// MCP (`jobs/entrance.ts`), with the thread linked in the transaction that creates the job.

/** A Slack message's identity: the same message is taken once, however often it is delivered. */
export const slackMessageOrigin = (teamId: string, channelId: string, ts: string): FollowUpOrigin => ({ kind: "event", key: `slack:${teamId}:${channelId}:${ts}` });

export interface SlackJobInput {
  projectId: string;
  prompt: string;
  /** Who asked, as Slack names them. */
  author: string;
  teamId: string;
  channelId: string;
  /** The thread the job is: the mention's own ts when it started one. */
  threadTs: string;
  /** The message that asked (the mention, or the message a shortcut was used on). */
  messageTs: string;
  /** The thread's permalink: the job's trigger URL. */
  permalink?: string | undefined;
}

/**
 * A job started from Slack and its thread's link, in one transaction; a delivery of the same mention
 * again (a retried task after a crash) finds the job it created and links nothing twice.
 */
export async function startSlackJob(entrance: JobEntrance, input: SlackJobInput): Promise<{ job: AgentJob; replayed: boolean }> {
  const origin = slackMessageOrigin(input.teamId, input.channelId, input.messageTs);
  const result = await entrance.db.transaction(async (tx) => {
    const created = await createJob(
      tx,
      {
        projectId: input.projectId,
        prompt: input.prompt,
        idempotencyKey: origin.kind === "event" ? origin.key : null,
        source: "slack",
        author: input.author,
        trigger: { type: "slack", url: input.permalink },
      },
      { defaultRateLimitPerHour: entrance.config.rateLimitPerHour },
    );
    await linkSlackThread(tx, { jobId: created.job.id, projectId: input.projectId, teamId: input.teamId, channelId: input.channelId, threadTs: input.threadTs });
    return created;
  });
  entrance.tasks.kick();
  return result;
}

/** A reply in a job's thread as a follow-up (or the answer to the job's question), taken once. */
export async function sendSlackMessage(
  entrance: JobEntrance,
  input: { projectId: string; jobId: string; prompt: string; author: string; teamId: string; channelId: string; messageTs: string },
): Promise<{ job: AgentJob; dispatched: boolean; alreadyTaken?: true }> {
  const result = await entrance.db.transaction((tx) =>
    addMessage(
      tx,
      { projectId: input.projectId, jobId: input.jobId, prompt: input.prompt, source: "slack", author: input.author, origin: slackMessageOrigin(input.teamId, input.channelId, input.messageTs) },
      { defaultRateLimitPerHour: entrance.config.rateLimitPerHour },
    ),
  );
  entrance.tasks.kick();
  return result;
}

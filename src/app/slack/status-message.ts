import type { Button, KnownBlock } from "@slack/web-api";
import { z } from "zod";
import type { AgentJob } from "../../shared/api-schemas.js";
import { forgeWords, type ForgeWords } from "../../shared/forge-words.js";
import { getJob } from "../domain/jobs/queries.js";
import { recordSlackAnnounced, recordSlackStatusMessage, slackThreadOfJob, SLACK_STATUS_TASK, type SlackStep } from "../domain/slack/slack-threads.js";
import { defineTask, type TaskDefinition } from "../tasks/task-definition.js";
import { APPROVE_ACTION, OPEN_PR_ACTION, STOP_ACTION } from "./interactions.js";
import { jobLink, say } from "./mentions.js";
import { slackContext, type SlackContext, type SlackTaskDeps } from "./context.js";

// A Slack job's one status message (docs/slack.md, "What the thread shows"): posted in the thread
// when the job starts, then edited with every step its events announce; a failure and a question
// are also said as replies, so the thread's people are notified.

// In the job's forge's words: a pull request on GitHub, a merge request on GitLab.
const STEP_WORDS: Partial<Record<SlackStep["event"], (step: SlackStep, words: ForgeWords) => string>> = {
  "job.created": () => "Job created",
  "job.run_started": (step) => `Run ${step.attempt ?? ""} started`,
  "job.run_finished": (step) => `Run ${step.attempt ?? ""} ${step.outcome === "waiting" ? "stopped to wait for you" : (step.outcome ?? "finished")}`,
  "job.waiting": () => "Waiting for you",
  "job.pull_request_opened": (_, words) => `${words.Change} opened`,
  "job.completed": () => "Completed",
  "job.failed": () => "Failed",
  "job.archived": (_, words) => `Archived (its ${words.change} was merged or closed)`,
};

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const time = (iso: string) => `<!date^${Math.floor(Date.parse(iso) / 1000)}^{time}|${iso.slice(11, 16)} UTC>`;

/** The status message: what the job is doing now, its steps, and the buttons that apply. */
export function statusBlocks(ctx: Pick<SlackContext, "publicUrl">, job: AgentJob, projectId: string, steps: SlackStep[]): { text: string; blocks: KnownBlock[] } {
  const now =
    job.status === "active"
      ? job.waitingFor === "approval"
        ? "has a plan for you to approve"
        : job.waitingFor === "answer"
          ? "has a question for you: reply in this thread to answer"
          : "is working"
      : job.status === "completed"
        ? "is done"
        : job.status === "failed"
          ? "failed"
          : "is archived";
  const words = forgeWords(job.forge);
  const link = jobLink(ctx as SlackContext, projectId, job.id);
  const text = `Inkwell ${link} ${now}.${job.prLink ? ` ${words.Change}: ${job.prLink}` : ""}`;
  const blocks: KnownBlock[] = [{ type: "section", text: { type: "mrkdwn", text: `*Inkwell* ${link} ${now}.` } }];
  const lines = steps.flatMap((step) => {
    const said = STEP_WORDS[step.event]?.(step, words);
    return said ? [`${time(step.at)} ${said}`] : [];
  });
  if (lines.length > 0) blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: clip(lines.slice(-12).join("\n"), 2_900) }] });
  if (job.status === "active" && job.waitingFor === "approval" && job.plan) blocks.push({ type: "section", text: { type: "mrkdwn", text: clip(`*Plan*\n${job.plan}`, 2_900) } });
  if (job.status === "active" && job.waitingFor === "answer" && job.question) blocks.push({ type: "section", text: { type: "mrkdwn", text: clip(`*Question*\n${job.question}`, 2_900) } });
  if (job.summary && job.status !== "active") blocks.push({ type: "section", text: { type: "mrkdwn", text: clip(job.summary, 2_900) } });
  if (job.status === "failed" && job.error) blocks.push({ type: "section", text: { type: "mrkdwn", text: clip(`*Why*: ${job.error}`, 2_900) } });
  const buttons: Button[] = [];
  if (job.status === "active" && job.waitingFor === "approval") buttons.push({ type: "button", action_id: APPROVE_ACTION, style: "primary", text: { type: "plain_text", text: "Approve plan" }, value: job.id });
  if (job.prLink) buttons.push({ type: "button", action_id: OPEN_PR_ACTION, text: { type: "plain_text", text: `Open ${words.changeShort}` }, url: job.prLink });
  if (job.status === "active") buttons.push({ type: "button", action_id: STOP_ACTION, style: "danger", text: { type: "plain_text", text: "Stop job" }, value: job.id });
  if (buttons.length > 0) blocks.push({ type: "actions", elements: buttons });
  return { text, blocks };
}

/** The replies a step is worth beside the edit: a failure, a question, a plan to approve. */
function announcement(step: SlackStep, job: AgentJob): string | null {
  if (step.event === "job.failed") return `The job failed${job.error ? `: ${job.error}` : "."} Reply here, mentioning me, to try again.`;
  if (step.event === "job.waiting" && job.status === "active" && job.waitingFor) return job.waitingFor === "answer" ? `A question for you: ${clip(job.question ?? "", 2_500)}\nReply in this thread to answer.` : "A plan is ready: approve it with the button above, or reply to change it.";
  return null;
}

export function slackStatusTask(deps: SlackTaskDeps): TaskDefinition {
  return defineTask<{ jobId: string }>({
    kind: SLACK_STATUS_TASK,
    payload: z.object({ jobId: z.string() }),
    async run({ jobId }) {
      const ctx = await slackContext(deps);
      if (!ctx) return { skipped: "Slack is not set up any more" };
      const thread = await slackThreadOfJob(deps.db, jobId);
      if (!thread) return { skipped: "not a Slack job" };
      const job = await getJob(deps.db, thread.projectId, jobId);
      const message = statusBlocks(ctx, job, thread.projectId, thread.steps);
      if (thread.statusTs) {
        await ctx.client.chat.update({ channel: thread.channelId, ts: thread.statusTs, ...message });
      } else {
        const posted = await say(ctx, thread.channelId, thread.threadTs, message.text, message.blocks);
        if (posted.ts) await deps.db.transaction((tx) => recordSlackStatusMessage(tx, jobId, posted.ts as string));
      }
      for (let index = thread.announced; index < thread.steps.length; index++) {
        const words = announcement(thread.steps[index] as SlackStep, job);
        if (words) await say(ctx, thread.channelId, thread.threadTs, words);
        await deps.db.transaction((tx) => recordSlackAnnounced(tx, jobId, index + 1));
      }
      return { ok: true, detail: `${thread.statusTs ? "updated" : "posted"} ${job.status}${job.waitingFor ? ` ${job.waitingFor}` : ""}` };
    },
  });
}

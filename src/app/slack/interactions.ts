import { z } from "zod";
import { DomainError } from "../domain/errors.js";
import { approve, cancel } from "../domain/jobs/entrance.js";
import { queueSlackStatus, slackThreadAt, slackThreadOfJob } from "../domain/slack/slack-threads.js";
import { mappingToSteer, SlackAccess } from "./access.js";
import { CHOOSE_PROJECT_ACTION, chosenProjectSchema, offerOrStart, startOn } from "./mentions.js";
import type { SlackContext } from "./context.js";
import { SlackNames } from "./thread-context.js";

// Buttons and the message shortcut (docs/slack.md, "Buttons"): approve a plan, stop a job, choose a
// project; "Send to Inkwell" on any message. The person clicking must be allowed to steer the job.

export const APPROVE_ACTION = "inkwell_approve";
export const STOP_ACTION = "inkwell_stop";
export const OPEN_PR_ACTION = "inkwell_open_pr";
/** The message shortcut's callback id (the manifest declares it). */
export const SEND_SHORTCUT = "inkwell_send";

const blockActionsSchema = z.object({
  type: z.literal("block_actions"),
  user: z.object({ id: z.string() }),
  team: z.object({ id: z.string() }).nullish(),
  channel: z.object({ id: z.string() }).optional(),
  message: z.object({ ts: z.string(), thread_ts: z.string().optional() }).optional(),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() })).min(1),
});

const shortcutSchema = z.object({
  type: z.literal("message_action"),
  callback_id: z.string(),
  user: z.object({ id: z.string() }),
  team: z.object({ id: z.string() }),
  channel: z.object({ id: z.string() }),
  message: z.object({ ts: z.string(), thread_ts: z.string().optional(), text: z.string().default("") }),
});

export async function handleInteraction(ctx: SlackContext, payload: Record<string, unknown>): Promise<string> {
  if (payload.type === "message_action") {
    const shortcut = shortcutSchema.parse(payload);
    if (shortcut.callback_id !== SEND_SHORTCUT) return `not Inkwell's shortcut: ${shortcut.callback_id}`;
    const threadTs = shortcut.message.thread_ts ?? shortcut.message.ts;
    const request = { teamId: shortcut.team.id, channelId: shortcut.channel.id, userId: shortcut.user.id, messageTs: shortcut.message.ts, threadTs, shortcut: true, text: shortcut.message.text };
    const thread = await slackThreadAt(ctx.db, shortcut.team.id, shortcut.channel.id, threadTs);
    if (thread) {
      await ctx.client.chat.postEphemeral({ channel: shortcut.channel.id, user: shortcut.user.id, thread_ts: threadTs, text: "This thread is already an Inkwell job: reply in it, mentioning me, to add to it." });
      return "a job's thread already";
    }
    return offerOrStart(ctx, request);
  }
  const clicked = blockActionsSchema.parse(payload);
  const action = clicked.actions[0] as { action_id: string; value?: string };
  const channelId = clicked.channel?.id ?? "";
  const tell = (text: string) => ctx.client.chat.postEphemeral({ channel: channelId, user: clicked.user.id, text, ...(clicked.message?.thread_ts ? { thread_ts: clicked.message.thread_ts } : {}) });
  if (action.action_id.startsWith(CHOOSE_PROJECT_ACTION)) {
    const chosen = chosenProjectSchema.parse(JSON.parse(action.value ?? "{}"));
    const started = await startOn(ctx, { teamId: clicked.team?.id ?? ctx.settings.teamId ?? "", channelId: chosen.c, userId: clicked.user.id, messageTs: chosen.m, threadTs: chosen.t, shortcut: chosen.s === 1, ...(chosen.i ? { instruction: chosen.i } : {}) }, chosen.p);
    if (clicked.message) await ctx.client.chat.update({ channel: channelId, ts: clicked.message.ts, text: `<@${clicked.user.id}> chose a project.`, blocks: [] }).catch(() => undefined);
    return started;
  }
  if (action.action_id !== APPROVE_ACTION && action.action_id !== STOP_ACTION) return `nothing to do for ${action.action_id}`;
  const thread = await slackThreadOfJob(ctx.db, action.value ?? "");
  if (!thread) return "not a Slack job";
  const access = new SlackAccess(ctx.client);
  if (!(await mappingToSteer(ctx.db, access, thread.projectId, thread.channelId, clicked.user.id))) {
    await tell("Sorry, only the people this project's Slack settings name may approve or stop its jobs.");
    return "refused: not allowed";
  }
  const author = await new SlackNames(ctx.client).of(clicked.user.id);
  try {
    if (action.action_id === APPROVE_ACTION) await approve(ctx.entrance, { projectId: thread.projectId, jobId: thread.jobId, cause: "slack", author });
    else await cancel(ctx.entrance, { projectId: thread.projectId, jobId: thread.jobId, cause: "slack", author });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await tell(`I could not do that: ${error.message}`);
    return `refused: ${error.message}`;
  }
  // The buttons change at once (an approved plan's button goes), before the run's own events.
  await ctx.db.transaction((tx) => queueSlackStatus(tx, thread.jobId));
  ctx.entrance.tasks.kick();
  return `${action.action_id === APPROVE_ACTION ? "approved" : "stopped"} ${thread.jobId}`;
}

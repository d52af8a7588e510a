import type { KnownBlock } from "@slack/web-api";
import { z } from "zod";
import { DomainError, RateLimitedError } from "../domain/errors.js";
import { getJob } from "../domain/jobs/queries.js";
import { getProject } from "../domain/projects.js";
import { sendSlackMessage, startSlackJob } from "../domain/slack/slack-jobs.js";
import { slackThreadAt, type SlackThread } from "../domain/slack/slack-threads.js";
import { mappingToSteer, projectsFor, SlackAccess } from "./access.js";
import type { SlackContext } from "./context.js";
import { readableText, SlackNames, threadContext, threadMessages } from "./thread-context.js";

// A mention, a reply in a job's thread, the slash command (docs/slack.md, "The thread is the job").

/** What someone asked, wherever they asked it (a mention, a direct message, the shortcut, the command). */
export interface SlackRequest {
  teamId: string;
  channelId: string;
  userId: string;
  /** The message that asks. */
  messageTs: string;
  /** The thread the job is: the message's own thread, or the message itself. */
  threadTs: string;
  /** The shortcut: the message is the context, not an instruction to the bot. */
  shortcut?: boolean;
  /** The asking message's text as delivered, when the thread cannot be read. */
  text?: string;
  /** The instruction itself, when the asking message is the bot's own (the slash command's). */
  instruction?: string;
}

export const CHOOSE_PROJECT_ACTION = "inkwell_choose_project";
export const chosenProjectSchema = z.object({ p: z.string(), c: z.string(), t: z.string(), m: z.string(), s: z.literal(1).optional(), i: z.string().optional() });

const eventSchema = z.object({ user: z.string(), text: z.string().default(""), ts: z.string(), channel: z.string(), thread_ts: z.string().optional(), channel_type: z.string().optional() });

export const say = (ctx: SlackContext, channel: string, threadTs: string, text: string, blocks?: KnownBlock[]) =>
  ctx.client.chat.postMessage({ channel, thread_ts: threadTs, text, ...(blocks ? { blocks } : {}) });

export const jobLink = (ctx: SlackContext, projectId: string, jobId: string) =>
  ctx.publicUrl ? `<${ctx.publicUrl}/dashboard/projects/${encodeURIComponent(projectId)}/jobs/${encodeURIComponent(jobId)}|job ${jobId}>` : `job \`${jobId}\``;

/** What a refusal of the job commands means to the person who asked. */
function refusal(error: DomainError): string {
  if (error instanceof RateLimitedError) return `This project has reached its limit of jobs and messages for now; try again in ${Math.ceil(error.retryAfterSeconds / 60)} minutes.`;
  return `I could not do that: ${error.message}`;
}

/** A mention (or a direct message): a follow-up in a job's thread, else a new job on the channel's project. */
export async function handleMention(ctx: SlackContext, teamId: string, raw: Record<string, unknown>): Promise<string> {
  const event = eventSchema.parse(raw);
  const request: SlackRequest = { teamId, channelId: event.channel, userId: event.user, messageTs: event.ts, threadTs: event.thread_ts ?? event.ts, text: event.text };
  if (event.thread_ts) {
    const thread = await slackThreadAt(ctx.db, teamId, event.channel, event.thread_ts);
    if (thread) return followUp(ctx, thread, request, event.text);
  }
  return offerOrStart(ctx, request);
}

/** A reply in a thread without a mention: a follow-up when the channel says any reply is one, or the answer to the job's question. */
export async function handleThreadMessage(ctx: SlackContext, teamId: string, raw: Record<string, unknown>): Promise<string> {
  const event = eventSchema.parse(raw);
  // A reply that mentions the bot arrives as an app_mention too: that one is taken.
  if (ctx.settings.botUserId && event.text.includes(`<@${ctx.settings.botUserId}>`) && event.channel_type !== "im") return "a mention: taken as app_mention";
  const thread = event.thread_ts ? await slackThreadAt(ctx.db, teamId, event.channel, event.thread_ts) : null;
  if (!thread) return "not a job's thread";
  const job = await getJob(ctx.db, thread.projectId, thread.jobId);
  const access = new SlackAccess(ctx.client);
  const mapping = await mappingToSteer(ctx.db, access, thread.projectId, event.channel, event.user);
  const addressed = event.channel_type === "im" || job.waitingFor === "answer" || mapping?.anyReply === true;
  if (!addressed) return "a reply that does not address the bot";
  return followUp(ctx, thread, { teamId, channelId: event.channel, userId: event.user, messageTs: event.ts, threadTs: thread.threadTs }, event.text);
}

/** `/inkwell <instruction>`: a message in the channel starts the thread, then it is a mention there. */
export async function handleCommand(ctx: SlackContext, command: { text: string; team_id: string; channel_id: string; user_id: string }): Promise<string> {
  const posted = await ctx.client.chat.postMessage({ channel: command.channel_id, text: `<@${command.user_id}> asked: ${command.text}` });
  if (!posted.ts) throw new Error("Slack posted the command's message without a ts");
  return offerOrStart(ctx, { teamId: command.team_id, channelId: command.channel_id, userId: command.user_id, messageTs: posted.ts, threadTs: posted.ts, instruction: command.text });
}

async function followUp(ctx: SlackContext, thread: SlackThread, request: SlackRequest, text: string): Promise<string> {
  const access = new SlackAccess(ctx.client);
  if (!(await mappingToSteer(ctx.db, access, thread.projectId, request.channelId, request.userId))) {
    await say(ctx, request.channelId, thread.threadTs, `Sorry <@${request.userId}>, only the people this project's Slack settings name may steer its jobs.`);
    return "refused: not allowed";
  }
  const names = new SlackNames(ctx.client);
  const prompt = await readableText(text, names, ctx.settings.botUserId);
  if (!prompt) return "an empty reply";
  try {
    const sent = await sendSlackMessage(ctx.entrance, { projectId: thread.projectId, jobId: thread.jobId, prompt, author: await names.of(request.userId), teamId: request.teamId, channelId: request.channelId, messageTs: request.messageTs });
    if (sent.alreadyTaken) return "taken before";
    await ctx.client.reactions.add({ channel: request.channelId, timestamp: request.messageTs, name: "eyes" }).catch(() => undefined);
    return `follow-up on ${thread.jobId}`;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await say(ctx, request.channelId, thread.threadTs, refusal(error));
    return `refused: ${error.message}`;
  }
}

/** A new job on the one project the user may use here; a choice when there are several; a polite no when none. */
export async function offerOrStart(ctx: SlackContext, request: SlackRequest): Promise<string> {
  const access = new SlackAccess(ctx.client);
  const { mapped, allowed } = await projectsFor(ctx.db, access, request.channelId, request.userId);
  if (allowed.length === 0) {
    await say(
      ctx,
      request.channelId,
      request.threadTs,
      mapped.length > 0
        ? `Sorry <@${request.userId}>, starting Inkwell jobs here is limited to the people this channel's settings name. Ask one of them, or an Inkwell operator to add you.`
        : "This conversation is not linked to an Inkwell project yet. An Inkwell operator can map a channel to a project on the project's settings page.",
    );
    return mapped.length > 0 ? "refused: not allowed" : "refused: unmapped";
  }
  if (mapped.length === 1 && allowed.length === 1) return startOn(ctx, request, (allowed[0] as { projectId: string }).projectId);
  const projects = await Promise.all(allowed.slice(0, 20).map((mapping) => getProject(ctx.db, mapping.projectId)));
  const blocks: KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: `<@${request.userId}>, which project should this work on?` } },
    {
      type: "actions",
      elements: projects.map((project) => ({
        type: "button" as const,
        action_id: `${CHOOSE_PROJECT_ACTION}:${project.id}`,
        text: { type: "plain_text" as const, text: project.repoName.slice(0, 75) },
        value: JSON.stringify({ p: project.id, c: request.channelId, t: request.threadTs, m: request.messageTs, ...(request.shortcut ? { s: 1 } : {}), ...(request.instruction ? { i: request.instruction.slice(0, 1_500) } : {}) }),
      })),
    },
  ];
  await say(ctx, request.channelId, request.threadTs, "Which project should this work on?", blocks);
  return `asked which of ${projects.length} projects`;
}

/** Starts the job: the asking message as the instruction, the thread's earlier messages as context. */
export async function startOn(ctx: SlackContext, request: SlackRequest, projectId: string): Promise<string> {
  // A thread is one job: a second choice (another button of the same question) starts nothing.
  const existing = await slackThreadAt(ctx.db, request.teamId, request.channelId, request.threadTs);
  if (existing) {
    if (existing.projectId !== projectId) await say(ctx, request.channelId, request.threadTs, `This thread is already ${jobLink(ctx, existing.projectId, existing.jobId)}: reply here, mentioning me, to add to it.`);
    return `already ${existing.jobId}`;
  }
  const names = new SlackNames(ctx.client);
  const messages = await threadMessages(ctx.client, request.channelId, request.threadTs).catch(() => []);
  const asking = messages.find((message) => message.ts === request.messageTs);
  const text = await readableText(request.instruction ?? asking?.text ?? request.text ?? "", names, ctx.settings.botUserId);
  const permalink = await ctx.client.chat
    .getPermalink({ channel: request.channelId, message_ts: request.threadTs })
    .then((answer) => answer.permalink ?? null)
    .catch(() => null);
  const context = await threadContext(messages, { beforeTs: request.messageTs, botUserId: ctx.settings.botUserId, names, threadPermalink: permalink });
  const author = asking?.user ? await names.of(asking.user) : "someone";
  const instruction = request.shortcut ? `Act on this Slack message from ${author}:\n<slack-message>\n${text}\n</slack-message>` : text;
  if (!instruction && !context) {
    await say(ctx, request.channelId, request.threadTs, "What should I do? Mention me again with an instruction, like “document the new retry setting”.");
    return "no instruction";
  }
  const prompt = [instruction || "Do what the thread below asks.", context].filter(Boolean).join("\n\n").slice(0, 32_000);
  try {
    const { job } = await startSlackJob(ctx.entrance, {
      projectId,
      prompt,
      author: await names.of(request.userId),
      teamId: request.teamId,
      channelId: request.channelId,
      threadTs: request.threadTs,
      messageTs: request.messageTs,
      permalink: permalink ?? undefined,
    });
    return `job ${job.id}`;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await say(ctx, request.channelId, request.threadTs, refusal(error));
    return `refused: ${error.message}`;
  }
}

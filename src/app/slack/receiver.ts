import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { verifySlackRequest } from "@slack/bolt";
import { z } from "zod";
import { slackSettings, takeSlackEvent } from "../domain/slack/slack-settings.js";
import { readBody, refuseDeclaredOversize } from "../http-kit/body.js";
import { HttpError } from "../http-kit/http-error.js";
import type { Reply } from "../http-kit/router.js";
import type { Db } from "../store/db.js";
import { enqueueTask } from "../tasks/tasks.js";
import { SLACK_EVENT_TASK, type SlackQueued } from "./slack-events.js";

/** A message is at most 40,000 characters; an interaction carries one message and its blocks (http/body-limits.ts lists it). */
export const MAX_SLACK_REQUEST_BYTES = 1024 * 1024;

/** Where the Events API, interactivity and the slash command deliver (the manifest names it for all three). */
export const SLACK_EVENTS_PATH = "/api/slack/events";


/** How far a request's timestamp may be from now, either way (Slack's rule: five minutes). */
const MAX_SKEW_SECONDS = 5 * 60;

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * One request of Slack's over HTTP: its signature and timestamp verified with the signing secret
 * (bolt's `verifySlackRequest`; a timestamp more than five minutes off either way is refused), then
 * taken as Socket Mode takes an envelope (`acceptSlackPayload`): queued as a task in one
 * transaction before Slack gets its answer, well within its three seconds.
 */
export async function receiveSlackRequest(db: Db, req: IncomingMessage, now: number): Promise<{ reply: Reply; queued: boolean }> {
  const settings = await slackSettings(db);
  if (!settings) throw new HttpError(404, "Slack is not set up on this server (docs/slack.md)");
  refuseDeclaredOversize(req, MAX_SLACK_REQUEST_BYTES);
  const body = (await readBody(req, MAX_SLACK_REQUEST_BYTES)).toString("utf8");
  const timestamp = Number(header(req, "x-slack-request-timestamp"));
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > MAX_SKEW_SECONDS) {
    throw new HttpError(401, "Invalid Slack request: x-slack-request-timestamp is missing or more than five minutes from now");
  }
  try {
    verifySlackRequest({ signingSecret: settings.signingSecret, body, headers: { "x-slack-signature": header(req, "x-slack-signature") ?? "", "x-slack-request-timestamp": timestamp }, nowMilliseconds: now });
  } catch {
    throw new HttpError(401, "Invalid Slack request: the signature does not verify");
  }
  const contentType = header(req, "content-type") ?? "";
  let payload: unknown;
  let kind: "events_api" | "interactive" | "slash_commands";
  try {
    if (contentType.startsWith("application/json")) {
      payload = JSON.parse(body);
      kind = "events_api";
    } else {
      const form = new URLSearchParams(body);
      const interactive = form.get("payload");
      payload = interactive !== null ? JSON.parse(interactive) : Object.fromEntries(form);
      kind = interactive !== null ? "interactive" : "slash_commands";
    }
  } catch {
    throw new HttpError(400, "The request's body is not what Slack sends");
  }
  const accepted = await acceptSlackPayload(db, kind, payload);
  return { reply: { status: 200, body: accepted.answer ?? {} }, queued: accepted.queued };
}

const envelopeSchema = z.object({ type: z.string(), event_id: z.string().optional(), team_id: z.string().optional(), challenge: z.string().optional(), event: z.record(z.string(), z.unknown()).optional() });

/** Messages Inkwell acts on: a person's, in a thread or a direct message (edits, joins and the bots' own are left alone). */
function wanted(event: Record<string, unknown>): boolean {
  if (event.type === "app_mention") return event.bot_id === undefined;
  if (event.type !== "message") return false;
  if (event.bot_id !== undefined || (event.subtype !== undefined && event.subtype !== "thread_broadcast" && event.subtype !== "file_share")) return false;
  return typeof event.thread_ts === "string" || event.channel_type === "im";
}

/**
 * What both receivers do with what Slack sent: answer the URL check, take each event or
 * interaction once (a retry of one already taken is acknowledged and dropped), and queue it as a
 * `slack_event` task in the transaction that takes it, so a restart after the answer loses nothing.
 * `answer`: the body to reply with (the URL check's challenge, a slash command's note).
 */
export async function acceptSlackPayload(db: Db, kind: "events_api" | "interactive" | "slash_commands", payload: unknown): Promise<{ queued: boolean; answer?: Record<string, unknown> }> {
  let queued: SlackQueued;
  let id: string;
  if (kind === "events_api") {
    const envelope = envelopeSchema.safeParse(payload);
    if (!envelope.success) throw new HttpError(400, "Not an Events API request");
    if (envelope.data.type === "url_verification") return { queued: false, answer: { challenge: envelope.data.challenge ?? "" } };
    const event = envelope.data.event;
    if (envelope.data.type !== "event_callback" || !event || !envelope.data.event_id || !wanted(event)) return { queued: false };
    queued = { kind: "event", teamId: envelope.data.team_id ?? "", event };
    id = envelope.data.event_id;
  } else if (kind === "interactive") {
    const interaction = z.object({ type: z.string(), trigger_id: z.string().optional(), action_ts: z.string().optional() }).loose().safeParse(payload);
    if (!interaction.success || !["block_actions", "message_action"].includes(interaction.data.type)) return { queued: false };
    queued = { kind: "interaction", payload: interaction.data };
    id = `interaction:${interaction.data.trigger_id ?? interaction.data.action_ts ?? createHash("sha256").update(JSON.stringify(payload)).digest("hex")}`;
  } else {
    const command = z.object({ command: z.string(), text: z.string().default(""), trigger_id: z.string(), team_id: z.string(), channel_id: z.string(), user_id: z.string() }).safeParse(payload);
    if (!command.success) return { queued: false };
    queued = { kind: "command", command: command.data };
    id = `command:${command.data.trigger_id}`;
    if (!command.data.text.trim()) return { queued: false, answer: { response_type: "ephemeral", text: `Say what to do: \`${command.data.command} document the new retry setting\`, or mention me in a thread.` } };
  }
  const taken = await db.transaction(async (tx) => {
    if (!(await takeSlackEvent(tx, id))) return false;
    await enqueueTask(tx, SLACK_EVENT_TASK, `slack:${id}`, queued);
    return true;
  });
  return { queued: taken, ...(kind === "slash_commands" && taken ? { answer: { response_type: "ephemeral", text: "On it: I will answer in a thread here." } } : {}) };
}

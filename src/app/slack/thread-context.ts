import type { WebClient } from "@slack/web-api";
import { storable } from "../../shared/stored-values.js";
import { visibleText } from "../../shared/visible-text.js";

// A Slack thread as the model reads it (docs/slack.md, "Context"): the earlier messages, oldest
// first, each with its author and permalink, bounded, in text as a person sees it.

/** Earlier messages carried, at most (the latest ones). */
export const MAX_CONTEXT_MESSAGES = 30;
/** Characters of one message, and of the whole context, at most. */
export const MAX_CONTEXT_MESSAGE_CHARS = 2_000;
export const MAX_CONTEXT_CHARS = 12_000;

export interface ThreadMessage {
  ts: string;
  user: string | undefined;
  botId: string | undefined;
  text: string;
}

/** A user's name as Slack shows it, asked once per task run. */
export class SlackNames {
  private readonly names = new Map<string, Promise<string>>();
  constructor(private readonly client: WebClient) {}

  of(userId: string): Promise<string> {
    let name = this.names.get(userId);
    if (!name) {
      name = this.client.users
        .info({ user: userId })
        .then((answer) => storable(answer.user?.profile?.display_name || answer.user?.real_name || answer.user?.name || userId))
        .catch(() => userId);
      this.names.set(userId, name);
    }
    return name;
  }
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/**
 * Slack's markup as the reader sees it: `<@U1>` as @name, `<#C1|general>` as #general, `<url|label>`
 * as label (url), entities decoded; then without invisible characters or HTML comments (the same
 * cleaning as every other text that reaches the model), storable (no NUL, no lone surrogate).
 * `botUserId`'s mention (the address) is dropped.
 */
export async function readableText(text: string, names: SlackNames, botUserId: string | null): Promise<string> {
  const users = [...new Set([...text.matchAll(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g)].map((match) => match[1] as string))].filter((id) => id !== botUserId);
  const resolved = new Map(await Promise.all(users.map(async (id) => [id, await names.of(id)] as const)));
  const plain = text
    .replace(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g, (_all, id: string) => (id === botUserId ? "" : `@${resolved.get(id) ?? id}`))
    .replace(/<#[A-Z0-9]+\|([^>]*)>/g, "#$1")
    .replace(/<!subteam\^[A-Z0-9]+(?:\|([^>]*))?>/g, (_all, label?: string) => label ?? "@group")
    .replace(/<!(here|channel|everyone)>/g, "@$1")
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]+)>/g, "$2 ($1)")
    .replace(/<((?:https?|mailto):[^>]+)>/g, "$1")
    .replace(/&(?:amp|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);
  return storable(visibleText(plain)).replace(/[ \t]+/g, " ").trim();
}

/** A message's permalink from the thread's own: Slack's links differ only in the message's ts. */
export function messagePermalink(threadPermalink: string | null, ts: string): string | null {
  if (!threadPermalink) return null;
  const url = new URL(threadPermalink);
  url.pathname = url.pathname.replace(/\/p\d+$/, `/p${ts.replace(".", "")}`);
  return url.toString();
}

/** The thread's messages (its first 200), oldest first. */
export async function threadMessages(client: WebClient, channel: string, threadTs: string): Promise<ThreadMessage[]> {
  const answer = await client.conversations.replies({ channel, ts: threadTs, limit: 200 });
  return (answer.messages ?? []).map((message) => ({ ts: message.ts ?? "", user: message.user, botId: message.bot_id, text: message.text ?? "" }));
}

/**
 * The earlier messages of a thread (before `beforeTs`, the bot's own left out) as a block the
 * instruction carries; null when there are none.
 */
export async function threadContext(
  messages: ThreadMessage[],
  options: { beforeTs: string; botUserId: string | null; names: SlackNames; threadPermalink: string | null },
): Promise<string | null> {
  const earlier = messages.filter((message) => Number(message.ts) < Number(options.beforeTs) && !message.botId && message.user !== options.botUserId && message.text.trim());
  const lines: string[] = [];
  let total = 0;
  for (const message of earlier.slice(-MAX_CONTEXT_MESSAGES).reverse()) {
    let text = await readableText(message.text, options.names, options.botUserId);
    if (text.length > MAX_CONTEXT_MESSAGE_CHARS) text = `${text.slice(0, MAX_CONTEXT_MESSAGE_CHARS)}…`;
    const author = message.user ? await options.names.of(message.user) : "someone";
    const link = messagePermalink(options.threadPermalink, message.ts);
    const line = `- ${author}${link ? ` (${link})` : ""}: ${text.replace(/\n/g, "\n  ")}`;
    if (total + line.length > MAX_CONTEXT_CHARS) break;
    total += line.length;
    lines.unshift(line);
  }
  if (lines.length === 0) return null;
  const left = earlier.length - lines.length;
  return [`Earlier messages in the Slack thread this was asked in, oldest first${left > 0 ? ` (${left} older ones left out)` : ""}:`, "<slack-thread>", ...lines, "</slack-thread>"].join("\n");
}

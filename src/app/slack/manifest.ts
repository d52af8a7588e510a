import type { SlackMode } from "../domain/slack/slack-settings.js";
import { SEND_SHORTCUT } from "./interactions.js";
import { SLACK_EVENTS_PATH } from "./receiver.js";

/** What the bot reads and writes (docs/slack.md, "Scopes"): every one is used by a call the app makes. */
export const SLACK_BOT_SCOPES = [
  "app_mentions:read",
  "channels:history",
  "groups:history",
  "im:history",
  "mpim:history",
  "channels:read",
  "groups:read",
  "chat:write",
  "commands",
  "reactions:write",
  "users:read",
  "usergroups:read",
] as const;

/** Mentions, and messages in the channels and conversations the bot is in (thread replies, direct messages). */
export const SLACK_BOT_EVENTS = ["app_mention", "message.channels", "message.groups", "message.im", "message.mpim"] as const;

/**
 * The Slack app manifest the operator creates the app from (api.slack.com/apps → From a manifest):
 * the Events API, interactivity and `/inkwell` at PUBLIC_URL for `http`; the same without URLs and
 * with Socket Mode on for `socket`.
 */
export function slackManifest(mode: SlackMode, publicUrl: string | null, name = "Inkwell"): Record<string, unknown> {
  const requestUrl = mode === "http" && publicUrl ? `${publicUrl}${SLACK_EVENTS_PATH}` : null;
  const at = (fields: Record<string, unknown>) => (requestUrl ? { ...fields, request_url: requestUrl } : fields);
  return {
    display_information: {
      name,
      description: "Docs work from Slack: mention it to start a docs job, reply in the thread to steer it.",
      background_color: "#4f46e5",
    },
    features: {
      app_home: { messages_tab_enabled: true, messages_tab_read_only_enabled: false },
      bot_user: { display_name: name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-"), always_online: true },
      shortcuts: [{ name: "Send to Inkwell", type: "message", callback_id: SEND_SHORTCUT, description: "Start a docs job with this message as its context" }],
      slash_commands: [{ command: "/inkwell", description: "Start a docs job in a new thread", usage_hint: "document the new retry setting", should_escape: false, ...(requestUrl ? { url: requestUrl } : {}) }],
    },
    oauth_config: { scopes: { bot: [...SLACK_BOT_SCOPES] } },
    settings: {
      event_subscriptions: at({ bot_events: [...SLACK_BOT_EVENTS] }),
      interactivity: at({ is_enabled: true }),
      org_deploy_enabled: false,
      socket_mode_enabled: mode === "socket",
      token_rotation_enabled: false,
    },
  };
}

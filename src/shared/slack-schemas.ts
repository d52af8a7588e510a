import { z } from "zod";

// The operator's Slack settings and a project's Slack channels (docs/slack.md): bodies and answers.

export const SLACK_MODES = ["http", "socket"] as const;

const botTokenField = z.string().trim().regex(/^xoxb-[A-Za-z0-9-]{10,250}$/, { error: "must be the app's Bot User OAuth Token (xoxb-…)" });
const signingSecretField = z.string().trim().regex(/^[0-9a-f]{16,128}$/, { error: "must be the app's Signing Secret (hexadecimal, from Basic Information)" });
const appTokenField = z
  .string({ error: "Socket Mode needs the app-level token (xapp-…)" })
  .trim()
  .regex(/^xapp-[A-Za-z0-9-]{10,250}$/, { error: "must be an app-level token (xapp-…) with connections:write" })
  .meta({ description: "Socket Mode's app-level token (xapp-…, scope connections:write)." });

// One branch per mode, so the published document says what Socket Mode needs (a refinement would not be in it).
export const slackSettingsRequestSchema = z
  .discriminatedUnion(
    "mode",
    [
      z.strictObject({
        mode: z.literal("http").default("http").meta({ description: "`http` (the default): the Events API at PUBLIC_URL." }),
        botToken: botTokenField,
        signingSecret: signingSecretField,
        appToken: appTokenField.optional(),
      }),
      z.strictObject({
        mode: z.literal("socket").meta({ description: "`socket`: Socket Mode, for a server Slack cannot reach; needs appToken." }),
        botToken: botTokenField,
        signingSecret: signingSecretField,
        appToken: appTokenField,
      }),
    ],
    { error: `mode must be one of ${SLACK_MODES.join(", ")}` },
  )
  .meta({ id: "SlackSettingsRequest" });
export type SlackSettingsRequest = z.infer<typeof slackSettingsRequestSchema>;

export const slackSettingsSchema = z
  .object({
    configured: z.boolean(),
    mode: z.enum(SLACK_MODES).nullable(),
    botUserId: z.string().nullable().meta({ description: "The bot's user id: a mention of it addresses Inkwell." }),
    teamId: z.string().nullable(),
    socketMode: z.boolean().meta({ description: "Socket Mode is on (an app-level token is saved)." }),
    requestUrl: z.string().nullable().meta({ description: "Where Slack delivers events, interactions and the slash command (PUBLIC_URL + /api/slack/events); null without PUBLIC_URL." }),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: "SlackSettings", description: "The server's Slack app, without its tokens and secret (they are never shown again)." });

const channelIdField = z.string().regex(/^[CGD][A-Z0-9]{2,30}$/, { error: "must be a Slack channel id (C…, G… or D…), as the channel's details show it" });
export const slackChannelIdSchema = channelIdField;

export const slackChannelRequestSchema = z
  .strictObject({
    userGroups: z
      .array(z.string().regex(/^S[A-Z0-9]{2,30}$/, { error: "must be a Slack user group id (S…)" }))
      .max(20)
      .default([])
      .meta({ description: "Only members of these user groups may start and steer jobs from Slack; empty: every member of the channel." }),
    anyReply: z.boolean().default(false).meta({ description: "Any reply in a job's thread is a follow-up, not only one that mentions the bot." }),
  })
  .meta({ id: "SlackChannelRequest" });
export type SlackChannelRequest = z.infer<typeof slackChannelRequestSchema>;

export const slackChannelSchema = z
  .object({ projectId: z.string(), channelId: z.string(), userGroups: z.array(z.string()), anyReply: z.boolean(), createdAt: z.string() })
  .meta({ id: "SlackChannel", description: "A Slack channel whose mentions work on the project." });

export const slackManifestQuerySchema = z.strictObject({ mode: z.enum(SLACK_MODES).default("http") });

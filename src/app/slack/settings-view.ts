import { slackChannelIdSchema } from "../../shared/slack-schemas.js";
import { InvalidInputError } from "../domain/errors.js";
import type { SlackSettings } from "../domain/slack/slack-settings.js";
import { SLACK_EVENTS_PATH } from "./receiver.js";

/** The Slack app's settings as the API and the dashboard show them: never a token or the secret. */
export function slackSettingsView(settings: SlackSettings | null, publicUrl: string | null) {
  return {
    configured: settings !== null,
    mode: settings?.mode ?? null,
    botUserId: settings?.botUserId ?? null,
    teamId: settings?.teamId ?? null,
    socketMode: settings?.mode === "socket" && settings.appToken !== null,
    requestUrl: publicUrl ? `${publicUrl}${SLACK_EVENTS_PATH}` : null,
    updatedAt: settings?.updatedAt ?? null,
  };
}

/** A channel id from a URL or a form (InvalidInputError naming `channelId` otherwise). */
export function slackChannelIdOf(value: string | undefined): string {
  const parsed = slackChannelIdSchema.safeParse(value);
  if (!parsed.success) throw new InvalidInputError("channelId: must be a Slack channel id (C…, G… or D…)", [{ field: "channelId", message: "must be a Slack channel id (C…, G… or D…), as the channel's details show it" }]);
  return parsed.data;
}

import type { Logger } from "pino";
import type { SlackSettingsRequest } from "../../shared/slack-schemas.js";
import { InvalidInputError } from "../domain/errors.js";
import { saveSlackSettings } from "../domain/slack/slack-settings.js";
import type { Db } from "../store/db.js";
import { slackWebClient } from "./slack-api.js";

/**
 * Saves the Slack app's settings (the operator API and the dashboard): the bot token is checked
 * with Slack first (`auth.test`), which names the bot user a mention addresses and the workspace.
 */
export async function saveSlackApp(db: Db, apiUrl: string, log: Logger, request: SlackSettingsRequest): Promise<void> {
  const identity = await slackWebClient(request.botToken, apiUrl, log, 1)
    .auth.test()
    .catch((error: Error) => ({ ok: false, error: error.message, user_id: undefined, team_id: undefined }));
  if (!identity.ok || !identity.user_id) {
    throw new InvalidInputError(`botToken: Slack refused it (${identity.error ?? "no bot user"})`, [{ field: "botToken", message: "Slack refused this token" }]);
  }
  await db.transaction((tx) =>
    saveSlackSettings(tx, { mode: request.mode, botToken: request.botToken, signingSecret: request.signingSecret, appToken: request.appToken ?? null, botUserId: identity.user_id ?? null, teamId: identity.team_id ?? null }),
  );
}

import type { Queryable } from "../../store/db.js";
import { queryOne } from "../../store/db.js";

// The server's one Slack app (docs/slack.md, "Settings"): its tokens, kept as the GitLab access
// tokens and the webhook signing secrets are (Inkwell calls Slack with them), never shown again.

export type SlackMode = "http" | "socket";

export interface SlackSettings {
  mode: SlackMode;
  botToken: string;
  signingSecret: string;
  /** Socket Mode's app-level token (xapp-…); null for the Events API over HTTP. */
  appToken: string | null;
  /** The bot's own user id (from auth.test): a mention of it addresses Inkwell, its own messages are never follow-ups. */
  botUserId: string | null;
  teamId: string | null;
  updatedAt: string;
}

interface SettingsRow {
  mode: SlackMode;
  bot_token: string;
  signing_secret: string;
  app_token: string | null;
  bot_user_id: string | null;
  team_id: string | null;
  updated_at: Date | string;
}

/** The Slack app's settings, or null when none are saved. */
export async function slackSettings(db: Queryable): Promise<SlackSettings | null> {
  const row = await queryOne<SettingsRow>(db, `SELECT mode, bot_token, signing_secret, app_token, bot_user_id, team_id, updated_at FROM slack_settings WHERE id = 'app'`);
  if (!row) return null;
  return {
    mode: row.mode,
    botToken: row.bot_token,
    signingSecret: row.signing_secret,
    appToken: row.app_token,
    botUserId: row.bot_user_id,
    teamId: row.team_id,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export type SlackSettingsChange = Omit<SlackSettings, "updatedAt">;

/** Saves (or replaces) the Slack app's settings. */
export async function saveSlackSettings(tx: Queryable, settings: SlackSettingsChange): Promise<void> {
  await tx.query(
    `INSERT INTO slack_settings (id, mode, bot_token, signing_secret, app_token, bot_user_id, team_id, updated_at) VALUES ('app', $1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (id) DO UPDATE SET mode = EXCLUDED.mode, bot_token = EXCLUDED.bot_token, signing_secret = EXCLUDED.signing_secret,
       app_token = EXCLUDED.app_token, bot_user_id = EXCLUDED.bot_user_id, team_id = EXCLUDED.team_id, updated_at = now()`,
    [settings.mode, settings.botToken, settings.signingSecret, settings.appToken, settings.botUserId, settings.teamId],
  );
}

/** Forgets the Slack app: mentions are no longer received (threads already linked stay linked). */
export async function deleteSlackSettings(tx: Queryable): Promise<boolean> {
  const deleted = await tx.query(`DELETE FROM slack_settings WHERE id = 'app' RETURNING id`);
  return deleted.length > 0;
}

/**
 * Takes one of Slack's event ids (or an interaction's id) once: false when it was taken before,
 * which is a retry of a delivery already queued. Ids older than a day are forgotten (Slack retries
 * for minutes, not days).
 */
export async function takeSlackEvent(tx: Queryable, eventId: string): Promise<boolean> {
  await tx.query(`DELETE FROM slack_events WHERE received_at < now() - interval '1 day'`);
  const taken = await tx.query(`INSERT INTO slack_events (event_id) VALUES ($1) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`, [eventId]);
  return taken.length > 0;
}

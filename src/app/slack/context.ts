import type { WebClient } from "@slack/web-api";
import type { Logger } from "pino";
import type { JobEntrance } from "../domain/jobs/entrance.js";
import { slackSettings, type SlackSettings } from "../domain/slack/slack-settings.js";
import type { Db } from "../store/db.js";
import { slackWebClient } from "./slack-api.js";

/** What the Slack handlers use: the store, the job entrance, the bot's client and where job pages are. */
export interface SlackContext {
  db: Db;
  entrance: JobEntrance;
  settings: SlackSettings;
  client: WebClient;
  /** The dashboard's base for job links (PUBLIC_URL); null: the link is the job's id. */
  publicUrl: string | null;
  log: Logger;
}

export interface SlackTaskDeps {
  db: Db;
  entrance: JobEntrance;
  apiUrl: string;
  publicUrl: string | null;
  log: Logger;
}

/** The context for one task run, or null when the Slack app was removed meanwhile. */
export async function slackContext(deps: SlackTaskDeps): Promise<SlackContext | null> {
  const settings = await slackSettings(deps.db);
  if (!settings) return null;
  return { db: deps.db, entrance: deps.entrance, settings, client: slackWebClient(settings.botToken, deps.apiUrl, deps.log), publicUrl: deps.publicUrl, log: deps.log };
}


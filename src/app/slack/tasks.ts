import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Db } from "../store/db.js";
import type { TaskDefinition } from "../tasks/task-definition.js";
import { slackEventTask } from "./slack-events.js";
import { slackStatusTask } from "./status-message.js";

/**
 * Slack's task kinds: what a delivery means (`slack_event`) and a job's status message
 * (`slack_status`). The jobs they start or steer are picked up by the worker's next scan.
 */
export function slackTasks(db: Db, config: Config, log: Logger): TaskDefinition[] {
  const deps = {
    db,
    entrance: { db, tasks: { kick: () => undefined }, config: { rateLimitPerHour: config.rateLimitPerHour } },
    apiUrl: config.slackApiUrl,
    publicUrl: config.publicUrl ?? null,
    log: log.child({ component: "slack" }),
  };
  return [slackEventTask(deps), slackStatusTask(deps)];
}

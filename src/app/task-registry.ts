import type { Logger } from "pino";
import type { Config } from "./config.js";
import { dispatchTask } from "./dispatch/dispatch-task.js";
import type { Dispatcher } from "./dispatch/dispatcher.js";
import type { Db } from "./store/db.js";
import type { TaskDefinition } from "./tasks/task-definition.js";
import { webhookDeliveryTask } from "./project-webhooks/delivery-task.js";
import type { Analytics } from "./analytics/analytics.js";
import { impactNoticeTask } from "./impact/impact-notice-task.js";
import { checksTasks } from "./forges/checks-task.js";
import { forgeParts, type Forges } from "./forges/forge.js";
import { robotsMergeTasks } from "./forges/robots-merges.js";
import { runCancelTask } from "./forges/run-cancel.js";
import { trackingCommentTask } from "./forges/tracking.js";
import { waitingCommentTask } from "./forges/waiting.js";

export interface TaskRegistryDeps {
  config: Config;
  db: Db;
  log: Logger;
  dispatcher: Dispatcher;
  /** Each forge: its part of the shared tasks, and its own task kinds. */
  forges: Forges;
  analytics: Analytics;
  /** Now, for when a merge's first week is over. */
  clock: () => number;
  /** The server's version, in the User-Agent of webhook deliveries. */
  version: string;
}

/** Every kind of background task this process runs: kind, payload schema and handler, in one table. */
export function createTaskRegistry({ config, db, log, analytics, clock, dispatcher, forges, version }: TaskRegistryDeps): TaskDefinition[] {
  const dispatch = dispatchTask(db, dispatcher, async (tx, dispatched) => {
    for (const forge of Object.values(forges)) await forge.afterDispatch?.(tx, dispatched);
  });
  const webhooks = webhookDeliveryTask(db, { userAgent: `Inkwell-Webhooks/${version}`, allowPrivate: config.webhooksAllowPrivate });
  const impactNotices = impactNoticeTask(db, analytics, clock);
  // A forge without what an operation needs (GitHub without the App) has no part in it: its jobs' tasks skip, saying so.
  const notes = forgeParts(forges, "notes");
  const tracking = trackingCommentTask(db, notes, config.command);
  const waiting = waitingCommentTask(db, notes, config.command);
  // The repository's own checks on a job's head: each forge reads its own.
  const checks = checksTasks(db, forgeParts(forges, "checks"), clock);
  // A stopped job's run, cancelled on its forge.
  const cancelRun = runCancelTask(db, forgeParts(forges, "runCancel"), log.child({ component: "run-cancel" }));
  // robots.txt from a merge into the docs repository, read by its forge.
  const robots = robotsMergeTasks(db, forgeParts(forges, "merges"), log.child({ component: "robots-merges" }));
  return [...checks, cancelRun, dispatch, webhooks, impactNotices, tracking, waiting, ...robots, ...Object.values(forges).flatMap((forge) => forge.tasks)];
}

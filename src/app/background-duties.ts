import type { Logger } from "pino";
import type { Analytics } from "./analytics/analytics.js";
import { failStalledJobs } from "./domain/jobs/watchdog.js";
import type { Db } from "./store/db.js";
import type { TaskWorker } from "./tasks/task-worker.js";

export interface BackgroundDutiesDeps {
  db: Db;
  log: Logger;
  tasks: TaskWorker;
  analytics: Analytics;
  jobTimeoutMinutes: number;
  watchdogIntervalMs: number;
}

const RETENTION_FIRST_PASS_MS = 60_000;
const RETENTION_INTERVAL_MS = 3_600_000;

/**
 * The periodic work of a running server besides the task queue: the job watchdog, counting views
 * left in the inbox, and analytics retention. Each duty is driven from the store, so a restart
 * re-arms it with nothing to remember. Returns a function that stops the timers.
 */
export function startBackgroundDuties({ db, log, tasks, analytics, jobTimeoutMinutes, watchdogIntervalMs }: BackgroundDutiesDeps): () => void {
  const watchdog = setInterval(() => {
    failStalledJobs(db, jobTimeoutMinutes)
      .then((ids) => {
        if (ids.length === 0) return;
        log.warn({ jobs: ids }, "watchdog failed jobs with no heartbeat");
        tasks.kick();
      })
      .catch((error: unknown) => log.error({ err: error }, "watchdog scan failed"));
  }, watchdogIntervalMs);
  watchdog.unref();
  // Views accepted before a restart are still in the inbox: count them now.
  analytics.rollup.kick(0);
  // A first pass soon after start, then hourly: a server restarted more often than hourly must still delete expired secrets.
  const prune = () => analytics.prune().catch((error: unknown) => log.error({ err: error }, "analytics retention pass failed; retried next hour"));
  const firstRetention = setTimeout(prune, RETENTION_FIRST_PASS_MS);
  firstRetention.unref();
  const retention = setInterval(prune, RETENTION_INTERVAL_MS);
  retention.unref();
  return () => {
    clearInterval(watchdog);
    clearInterval(retention);
    clearTimeout(firstRetention);
  };
}

import type { Logger } from "pino";
import type { Analytics } from "./analytics/analytics.js";
import { fireDueSchedule } from "./domain/automations/schedules.js";
import { archiveExpiredWaits, failStalledJobs } from "./domain/jobs/watchdog.js";
import type { Db } from "./store/db.js";
import { vacuumEmbeddedStore } from "./store/embedded-upkeep.js";
import type { TaskWorker } from "./tasks/task-worker.js";

export interface BackgroundDutiesDeps {
  db: Db;
  log: Logger;
  tasks: TaskWorker;
  analytics: Analytics;
  jobTimeoutMinutes: number;
  watchdogIntervalMs: number;
  rateLimitPerHour: number;
  /** How often this instance looks for due schedules (every instance does; each firing happens once). */
  scheduleScanMs?: number;
}

/** Firings taken in one scan at most: a backlog (after downtime) drains over a few scans, not in one burst. */
const FIRINGS_PER_SCAN = 20;

const RETENTION_FIRST_PASS_MS = 60_000;
const RETENTION_INTERVAL_MS = 3_600_000;
/** PGlite's vacuum (no autovacuum there): once a day, the first well after start so a restart's catching up comes first. */
const UPKEEP_FIRST_PASS_MS = 10 * 60_000;
const UPKEEP_INTERVAL_MS = 24 * 3_600_000;

/**
 * The periodic work of a running server besides the task queue: the job watchdog, firing due
 * schedules, counting views left in the inbox, analytics retention, and on PGlite its vacuum. Each duty is driven from the store, so a restart
 * re-arms it with nothing to remember. Returns a function that stops the timers.
 */
export function startBackgroundDuties({ db, log, tasks, analytics, jobTimeoutMinutes, watchdogIntervalMs, rateLimitPerHour, scheduleScanMs = 1_000 }: BackgroundDutiesDeps): () => void {
  const watchdog = setInterval(() => {
    failStalledJobs(db, jobTimeoutMinutes)
      .then((ids) => {
        if (ids.length === 0) return;
        log.warn({ jobs: ids }, "watchdog failed jobs with no heartbeat");
        tasks.kick();
      })
      .catch((error: unknown) => log.error({ err: error }, "watchdog scan failed"));
    db.query<{ now: Date | string }>(`SELECT now() AS now`)
      .then(([clock]) => archiveExpiredWaits(db, new Date(clock?.now ?? Date.now())))
      .then((ids) => {
        if (ids.length === 0) return;
        log.info({ jobs: ids }, "archived jobs that waited past their project's limit");
        tasks.kick();
      })
      .catch((error: unknown) => log.error({ err: error }, "waiting-limit scan failed"));
  }, watchdogIntervalMs);
  watchdog.unref();
  let scanning = false;
  const fireSchedules = async () => {
    for (let taken = 0; taken < FIRINGS_PER_SCAN; taken++) {
      // The store's clock, not this instance's: instances whose clocks disagree still agree on what is due.
      const firing = await db.transaction(async (tx) => {
        const [clock] = await tx.query<{ now: Date | string }>(`SELECT now() AS now`);
        return fireDueSchedule(tx, new Date(clock?.now ?? Date.now()), { defaultRateLimitPerHour: rateLimitPerHour });
      });
      if (!firing) return;
      log.info(firing, "schedule fired");
      if (firing.jobId) tasks.kick();
    }
  };
  const schedules = setInterval(() => {
    if (scanning) return;
    scanning = true;
    fireSchedules()
      .catch((error: unknown) => log.error({ err: error }, "schedule scan failed; retried at the next scan"))
      .finally(() => (scanning = false));
  }, scheduleScanMs);
  schedules.unref();
  // Views accepted before a restart are still in the inbox: count them now.
  analytics.rollup.kick(0);
  // A first pass soon after start, then hourly: a server restarted more often than hourly must still delete expired secrets.
  const prune = () => analytics.prune().catch((error: unknown) => log.error({ err: error }, "analytics retention pass failed; retried next hour"));
  const firstRetention = setTimeout(prune, RETENTION_FIRST_PASS_MS);
  firstRetention.unref();
  const retention = setInterval(prune, RETENTION_INTERVAL_MS);
  retention.unref();
  const upkeep = db.kind === "pglite" ? startEmbeddedUpkeep(db, log) : () => {};
  return () => {
    clearInterval(watchdog);
    clearInterval(schedules);
    clearInterval(retention);
    clearTimeout(firstRetention);
    upkeep();
  };
}

function startEmbeddedUpkeep(db: Db, log: Logger): () => void {
  const vacuum = () =>
    vacuumEmbeddedStore(db)
      .then((done) => log.info(done, "embedded store vacuumed and analyzed"))
      .catch((error: unknown) => log.error({ err: error }, "embedded store vacuum failed; tried again tomorrow"));
  const first = setTimeout(vacuum, UPKEEP_FIRST_PASS_MS);
  first.unref();
  const daily = setInterval(vacuum, UPKEEP_INTERVAL_MS);
  daily.unref();
  return () => {
    clearTimeout(first);
    clearInterval(daily);
  };
}

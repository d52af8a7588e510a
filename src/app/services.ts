import type { BlockList } from "node:net";
import type { Analytics } from "./analytics/analytics.js";
import type { Config } from "./config.js";
import type { ApiKeyVerifier } from "./domain/api-keys.js";
import type { Logger } from "pino";
import type { GitHubApi } from "./forges/github/api.js";
import type { Forges } from "./forges/forge.js";
import type { TaskWorker } from "./tasks/task-worker.js";
import type { Db } from "./store/db.js";

/** What request handlers may use. Built once per process in server.ts. */
export interface Services {
  config: Config;
  db: Db;
  verifier: ApiKeyVerifier;
  /** Kick after committing a change that queued a task. */
  tasks: TaskWorker;
  log: Logger;
  /** null without GitHub App credentials. */
  github: GitHubApi | null;
  /** Each forge, by the name jobs and projects store: everything a job does on its forge goes through these. */
  forges: Forges;
  adminToken: string;
  analytics: Analytics;
  trustedProxies: BlockList;
  /** Now, for what is measured from the day's date (a job's impact windows); Date.now but in tests. */
  clock: () => number;
}

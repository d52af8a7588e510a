import type { Config } from "../config.js";
import type { ApiKeyVerifier } from "../domain/api-keys.js";
import type { TaskWorker } from "../tasks/task-worker.js";
import type { Db } from "../store/db.js";

/** What request handlers may use. Built once per process in server.ts. */
export interface Services {
  config: Config;
  db: Db;
  verifier: ApiKeyVerifier;
  /** Kick after committing a change that queued a task. */
  tasks: TaskWorker;
  adminToken: string;
}

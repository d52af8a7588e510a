import type { BlockList } from "node:net";
import type { Analytics } from "./analytics/analytics.js";
import type { Config } from "./config.js";
import type { ApiKeyVerifier } from "./domain/api-keys.js";
import type { Logger } from "pino";
import type { GitHubApi } from "./forges/github/api.js";
import type { OidcVerifier } from "./forges/github/runner-identity.js";
import type { GitLabIdTokenVerifier } from "./forges/gitlab/runner-identity.js";
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
  /** null without an App or without PUBLIC_URL (the token audience). */
  oidc: OidcVerifier | null;
  /** GitLab CI ID tokens of connected projects' instances; null without PUBLIC_URL (the token audience). */
  gitlabIdTokens: GitLabIdTokenVerifier | null;
  adminToken: string;
  analytics: Analytics;
  trustedProxies: BlockList;
  /** Now, for what is measured from the day's date (a job's impact windows); Date.now but in tests. */
  clock: () => number;
}

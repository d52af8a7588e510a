import type { Logger } from "pino";
import type { Config } from "../../config.js";
import type { Db } from "../../store/db.js";
import type { Forge } from "../forge.js";
import { gitLabChecks } from "./checks.js";
import { GitLabDispatcher } from "./dispatcher.js";
import { gitLabEventTask } from "./event-task.js";
import { gitLabNotes } from "./notes.js";
import { gitLabMergeReading } from "./robots-merges.js";
import { gitLabRunCancel } from "./run-cancel.js";
import { gitLabRunner } from "./runner.js";
import { GitLabIdTokenVerifier } from "./runner-identity.js";
import { gitLabSourceLinks, gitLabSourceUnlinkTask } from "./source-link.js";
import { gitLabWebhooks } from "./webhook-endpoint.js";

export interface GitLabForgeDeps {
  config: Config;
  db: Db;
  log: Logger;
  clock: () => number;
  /** How the ID token verifier fetches an instance's keys (tests). */
  oidcFetch?: typeof fetch;
}

/** GitLab as a `Forge`: each connected project's access token speaks for Inkwell (`domain/gitlab-connections.ts`), so nothing here waits for server-wide credentials. */
export function gitLabForge({ config, db, log, clock, oidcFetch }: GitLabForgeDeps): Forge {
  const publicUrl = config.publicUrl ?? null;
  const idTokens = config.publicUrl ? new GitLabIdTokenVerifier(db, config.publicUrl, oidcFetch, clock) : null;
  return {
    name: "gitlab",
    dispatcher: new GitLabDispatcher(db, config.publicUrl),
    runner: gitLabRunner(db, idTokens),
    sources: gitLabSourceLinks({ db, publicUrl: config.publicUrl }),
    // Each project brings its own access token: nothing server-wide to miss.
    missing: null,
    runCancel: gitLabRunCancel(db),
    checks: gitLabChecks(db),
    notes: gitLabNotes(db),
    merges: gitLabMergeReading(db),
    webhooks: gitLabWebhooks(db),
    tasks: [
      gitLabEventTask(db, { command: config.command, rateLimitPerHour: config.rateLimitPerHour, publicUrl }, log.child({ component: "gitlab-events" })),
      gitLabSourceUnlinkTask(db, publicUrl, log.child({ component: "gitlab-source-links" })),
    ],
  };
}

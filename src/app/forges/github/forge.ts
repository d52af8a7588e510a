import type { Logger } from "pino";
import type { Probot } from "probot";
import type { Config } from "../../config.js";
import type { Db } from "../../store/db.js";
import { enqueueTask } from "../../tasks/tasks.js";
import type { Forge, ForgeWebhooks } from "../forge.js";
import type { GitHubApi } from "./api.js";
import { APP_SETUP_PATH, appSetupUrl } from "./app-urls.js";
import { issueReplyTask } from "./automation-jobs.js";
import { gitHubChecks } from "./checks.js";
import { GitHubDispatcher, NoAppDispatcher } from "./dispatcher.js";
import { githubEventTask } from "./event-task.js";
import { reactionTask } from "./follow-up.js";
import { gitHubNotes } from "./notes.js";
import { gitHubMergeReading } from "./robots-merges.js";
import { gitHubRunCancel } from "./run-cancel.js";
import { gitHubRunner } from "./runner.js";
import { OidcVerifier } from "./runner-identity.js";
import { gitHubSourceLinks } from "./source-link.js";
import { gitHubWebhookEndpoint, WEBHOOK_PATH, type WebhookEndpoint } from "./webhook-endpoint.js";
import { WORKFLOW_CHECK_TASK, workflowCheckTask } from "./workflow-check.js";

export interface GitHubForgeDeps {
  config: Config;
  db: Db;
  log: Logger;
  /** The App; null without its credentials: jobs fail saying how to set it up, and what needs it skips. */
  github: GitHubApi | null;
  /** The App's Probot, whose handlers take its webhook deliveries; null without the App. */
  probot?: Probot | null;
  /** Look for the Inkwell workflow after a dispatch no run claimed (off when tests replace the dispatcher). */
  checkWorkflow: boolean;
  clock: () => number;
  /** How the OIDC verifier fetches the issuer's keys (tests). */
  oidcFetch?: typeof fetch;
}

/** GitHub as a `Forge`: the App's installation speaks for Inkwell; without the App only what needs none is here. */
export function gitHubForge({ config, db, log, github, probot, checkWorkflow, clock, oidcFetch }: GitHubForgeDeps): Forge {
  const setupUrl = appSetupUrl(config);
  const oidc = github && config.publicUrl ? new OidcVerifier(config.oidcIssuer, config.publicUrl, oidcFetch, clock) : null;
  const common = {
    name: "github" as const,
    dispatcher: github ? new GitHubDispatcher(github, config.githubServerUrl) : new NoAppDispatcher(setupUrl),
    runner: gitHubRunner({ github, oidc, issuer: config.oidcIssuer, setupUrl }),
    sources: gitHubSourceLinks(github, config.githubServerUrl),
    missing: github ? null : { what: "GitHub App", setupPath: APP_SETUP_PATH, setupUrl },
  };
  if (!github) return { ...common, tasks: [] };
  const options = { serverUrl: config.githubServerUrl, defaultModel: config.defaultModel, command: config.command, rateLimitPerHour: config.rateLimitPerHour, publicUrl: config.publicUrl ?? null };
  return {
    ...common,
    runCancel: gitHubRunCancel(github),
    checks: gitHubChecks(github),
    notes: gitHubNotes(github),
    merges: gitHubMergeReading(db, github),
    ...(probot ? { webhooks: appWebhooks(probot, db, log) } : {}),
    ...(checkWorkflow
      ? { afterDispatch: (tx, dispatched) => enqueueTask(tx, WORKFLOW_CHECK_TASK, `workflow-check:${dispatched.jobId}:${dispatched.runAttempt}`, dispatched, config.workflowCheckSeconds) }
      : {}),
    tasks: [
      workflowCheckTask(db, github),
      githubEventTask(db, github, options, log.child({ component: "github-events" })),
      reactionTask(github),
      issueReplyTask(github),
    ],
  };
}

/**
 * The App's deliveries on its webhook path, and on the root URL where an App registered through the
 * manifest flow sends them. Probot's handlers are registered on the first delivery.
 */
function appWebhooks(probot: Probot, db: Db, log: Logger): ForgeWebhooks {
  let endpoint: Promise<WebhookEndpoint> | null = null;
  return {
    path: WEBHOOK_PATH,
    claims: (req, pathname) => pathname === "/" && req.method === "POST" && req.headers["x-github-event"] !== undefined,
    async receive(req, res, _pathname, kick) {
      endpoint ??= gitHubWebhookEndpoint(probot, db, kick, log).catch((error: unknown) => {
        // Tried again on the next delivery.
        endpoint = null;
        throw error;
      });
      await (await endpoint)(req, res);
      return null;
    },
  };
}

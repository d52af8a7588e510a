import type { Logger } from "pino";
import type { Config } from "./config.js";
import { dispatchTask } from "./dispatch/dispatch-task.js";
import type { Dispatcher } from "./dispatch/dispatcher.js";
import { reactionTask } from "./forges/github/follow-up.js";
import { robotsMergeTask } from "./forges/github/robots-merges.js";
import { issueReplyTask } from "./forges/github/automation-jobs.js";
import { githubEventTask } from "./forges/github/event-task.js";
import { gitLabEventTask } from "./forges/gitlab/event-task.js";
import { gitLabRobotsMergeTask } from "./forges/gitlab/robots-merges.js";
import { gitLabSourceUnlinkTask } from "./forges/gitlab/source-link.js";
import { gitLabNotes } from "./forges/gitlab/notes.js";
import { gitHubNotes } from "./forges/github/notes.js";
import type { GitHubApi } from "./forges/github/api.js";
import { trackingCommentTask } from "./forges/tracking.js";
import { waitingCommentTask } from "./forges/waiting.js";
import { WORKFLOW_CHECK_TASK, workflowCheckTask } from "./forges/github/workflow-check.js";
import type { Db } from "./store/db.js";
import type { TaskDefinition } from "./tasks/task-definition.js";
import { enqueueTask } from "./tasks/tasks.js";
import { webhookDeliveryTask } from "./project-webhooks/delivery-task.js";
import type { Analytics } from "./analytics/analytics.js";
import { impactNoticeTask } from "./impact/impact-notice-task.js";
import { checksTasks } from "./forges/checks-task.js";
import { gitHubChecks } from "./forges/github/checks.js";
import { gitLabChecks } from "./forges/gitlab/checks.js";
import { runCancelTask } from "./forges/run-cancel.js";
import { gitHubRunCancel } from "./forges/github/run-cancel.js";
import { gitLabRunCancel } from "./forges/gitlab/run-cancel.js";

export interface TaskRegistryDeps {
  config: Config;
  db: Db;
  log: Logger;
  dispatcher: Dispatcher;
  /** null without GitHub App credentials: then only dispatch runs (and fails, saying how to set the App up). */
  github: GitHubApi | null;
  /** Look for the Inkwell workflow after a dispatch no run claimed (off when tests replace the dispatcher). */
  checkWorkflow: boolean;
  analytics: Analytics;
  /** Now, for when a merge's first week is over. */
  clock: () => number;
  /** The server's version, in the User-Agent of webhook deliveries. */
  version: string;
}

/** Every kind of background task this process runs: kind, payload schema and handler, in one table. */
export function createTaskRegistry({ config, db, log, analytics, clock, dispatcher, github, checkWorkflow, version }: TaskRegistryDeps): TaskDefinition[] {
  const dispatch = dispatchTask(db, dispatcher, async (tx, dispatched) => {
    if (checkWorkflow) {
      await enqueueTask(tx, WORKFLOW_CHECK_TASK, `workflow-check:${dispatched.jobId}:${dispatched.runAttempt}`, dispatched, config.workflowCheckSeconds);
    }
  });
  const webhooks = webhookDeliveryTask(db, { userAgent: `Inkwell-Webhooks/${version}`, allowPrivate: config.webhooksAllowPrivate });
  const impactNotices = impactNoticeTask(db, analytics, clock);
  const gitlabEvents = gitLabEventTask(db, { command: config.command, rateLimitPerHour: config.rateLimitPerHour, publicUrl: config.publicUrl ?? null }, log.child({ component: "gitlab-events" }));
  const notes = { gitlab: gitLabNotes(db), ...(github ? { github: gitHubNotes(github) } : {}) };
  const tracking = trackingCommentTask(db, notes, config.command);
  const waiting = waitingCommentTask(db, notes, config.command);
  const gitlabRobots = gitLabRobotsMergeTask(db, log.child({ component: "gitlab-robots-merges" }));
  const gitlabUnlink = gitLabSourceUnlinkTask(db, config.publicUrl ?? null, log.child({ component: "gitlab-source-links" }));
  // The repository's own checks on a job's head: each forge reads its own; without the App, GitHub's are skipped.
  const checks = checksTasks(db, { gitlab: gitLabChecks(db), ...(github ? { github: gitHubChecks(github) } : {}) }, clock);
  // A stopped job's run, cancelled on its forge; without the App no workflow run was started.
  const cancelRun = runCancelTask(db, { gitlab: gitLabRunCancel(db), ...(github ? { github: gitHubRunCancel(github) } : {}) }, log.child({ component: "run-cancel" }));
  if (!github) return [dispatch, webhooks, impactNotices, gitlabEvents, gitlabRobots, gitlabUnlink, tracking, waiting, cancelRun, ...checks];
  return [
    ...checks,
    cancelRun,
    dispatch,
    webhooks,
    impactNotices,
    gitlabEvents,
    gitlabRobots,
    gitlabUnlink,
    tracking,
    waiting,
    workflowCheckTask(db, github),
    githubEventTask(
      db,
      github,
      { serverUrl: config.githubServerUrl, defaultModel: config.defaultModel, command: config.command, rateLimitPerHour: config.rateLimitPerHour, publicUrl: config.publicUrl ?? null },
      log.child({ component: "github-events" }),
    ),
    reactionTask(github),
    robotsMergeTask(db, github, log.child({ component: "robots-merges" })),
    issueReplyTask(github),
  ];
}

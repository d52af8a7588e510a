import type { IncomingMessage, ServerResponse } from "node:http";
import type { ForgeName } from "../../shared/forge-words.js";
import type { DispatchOutcome, DispatchRequest, Dispatcher } from "../dispatch/dispatcher.js";
import type { Reply } from "../http-kit/router.js";
import type { Queryable } from "../store/db.js";
import type { TaskDefinition } from "../tasks/task-definition.js";
import type { ChecksForge } from "./checks.js";
import type { MergeReadingForge } from "./robots-merges.js";
import type { RunCancelForge } from "./run-cancel.js";
import type { RunnerForge } from "./runner.js";
import type { SourceLinkForge } from "./source-link.js";
import type { TrackingNoteForge } from "./tracking.js";
import type { WaitingNoteForge } from "./waiting.js";

/**
 * A repository's forge, everything a job does on it (docs/architecture.md, "Forges"): each forge's
 * folder under `forges/` implements it in its `forge.ts` (`github/forge.ts`, `gitlab/forge.ts`,
 * with the same file names for the same operations), and `forges/registry.ts` holds one of each,
 * keyed by the name a job and a project store (`jobs.forge`, `projects.forge`). Code outside
 * `forges/` speaks to a job's forge through this, never to a forge's own modules.
 *
 * What the forge's webhooks mean for jobs (comments and reviews as follow-ups, who may comment, a
 * merge read for robots.txt, source and issue events, a run that ended without a report) arrives
 * through its own endpoint and becomes its own queued event, acted on by the tasks in `tasks`.
 */
export interface Forge {
  readonly name: ForgeName;
  /** Starting a run of a job in its repository (GitHub's `repository_dispatch`, GitLab's pipeline API). */
  readonly dispatcher: Dispatcher;
  /** The runner's identity, its claim's answer, and publishing the change request its report names. */
  readonly runner: RunnerForge;
  /** Source repositories linked to a project's automations. */
  readonly sources: SourceLinkForge;
  /** What this server lacks to run jobs on the forge (GitHub without its App), and where the operator sets it up; null when it lacks nothing. */
  readonly missing: MissingAccess | null;
  /**
   * The operations this server can do on the forge only with its credentials (GitHub's App): absent
   * without them, and the tasks that need them skip, saying so.
   */
  readonly runCancel?: RunCancelForge;
  readonly checks?: ChecksForge;
  readonly notes?: TrackingNoteForge & WaitingNoteForge;
  /** Reading a merge into the docs repository's default branch (its files, a file at its commit, when it merged): robots.txt versions. */
  readonly merges?: MergeReadingForge;
  /** In the transaction that records a dispatch (GitHub queues the workflow check). */
  afterDispatch?(tx: Queryable, dispatched: { jobId: string; runAttempt: number }): Promise<void>;
  /** The background task kinds only this forge runs: its webhook events, its reactions and replies, its link removals. */
  readonly tasks: readonly TaskDefinition[];
  /** Where the forge delivers its webhooks, answered before the router; absent while the server cannot take them (GitHub without its App). */
  readonly webhooks?: ForgeWebhooks;
}

/**
 * A forge's webhook deliveries, taken on the raw request (a signature is checked on the bytes as
 * sent) and queued as its own tasks; the request handler mounts every forge's.
 */
export interface ForgeWebhooks {
  /** The path its deliveries arrive on; a path below it (`/api/gitlab/webhooks/<project>`) is its too. */
  readonly path: string;
  /** Whether a request to another path is one of its deliveries (an App made from GitHub's manifest delivers to the root URL). */
  claims?(req: IncomingMessage, pathname: string): boolean;
  /**
   * Answers one delivery, waking the task queue with `kick` once its task is committed: a reply for
   * the request handler to send, or null when it answered on the raw response itself. Refusals are
   * thrown HttpErrors, as everywhere.
   */
  receive(req: IncomingMessage, res: ServerResponse, pathname: string, kick: () => void): Promise<Reply | null>;
}

/** What a server lacks to act on a forge, as pages, tools and the CLI say it: "This server has no GitHub App yet". */
export interface MissingAccess {
  /** What is missing, in the forge's words (`access`). */
  what: string;
  /** Where the operator sets it up: the dashboard's path, and its whole URL. */
  setupPath: string;
  setupUrl: string;
}

/** One forge of each name. */
export type Forges = Readonly<Record<ForgeName, Forge>>;

/** Each forge's `part` where it has one, by name: what a shared task takes (`runCancelTask`, `checksTasks`, the notes' tasks, `robotsMergeTasks`). */
export function forgeParts<K extends "runCancel" | "checks" | "notes" | "merges">(forges: Forges, part: K): Partial<Record<ForgeName, NonNullable<Forge[K]>>> {
  const parts: Partial<Record<ForgeName, NonNullable<Forge[K]>>> = {};
  for (const forge of Object.values(forges)) {
    const value = forge[part];
    if (value) parts[forge.name] = value as NonNullable<Forge[K]>;
  }
  return parts;
}

/** The forge seam for starting runs: each job is dispatched by its repository's forge's dispatcher. */
export const dispatcherOf = (forges: Forges): Dispatcher => ({
  dispatch: (request: DispatchRequest): Promise<DispatchOutcome> => forges[request.forge].dispatcher.dispatch(request),
});

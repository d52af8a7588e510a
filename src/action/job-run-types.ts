import type { RetryPolicy } from "./agent/agent-loop.js";
import type { DispatchedRun } from "./dispatch-event.js";
import type { RunnerForge } from "./forge.js";
import type { ActionInputs } from "./inputs.js";
import type { RunnerClient } from "./runner-client.js";
import type { ClaimResponse } from "../shared/runner-schemas.js";

export interface RunnerEnvironment {
  /** GITHUB_WORKSPACE (CI_PROJECT_DIR on GitLab): the checkout the agent edits (cloned there when empty). */
  workspace: string;
  /** GITHUB_REPOSITORY (owner/repo), or CI_PROJECT_PATH (group/…/project). */
  repository: string;
  serverUrl: string;
  apiUrl: string;
  /** GITHUB_RUN_ID, or CI_PIPELINE_ID. */
  runId: number;
  runUrl: string | null;
  /** GitLab only: CI_JOB_ID, sent with the claim. */
  ciJobId?: number;
  /** Where to fetch and push; default `${serverUrl}/${repository}.git`. */
  remoteUrl?: string;
}

export interface RunLog {
  info(message: string): void;
  warning(message: string): void;
  /** Masks a value in every later log line. */
  secret(value: string): void;
}

export interface JobRunDependencies {
  inputs: ActionInputs;
  dispatched: DispatchedRun;
  env: RunnerEnvironment;
  inkwell: RunnerClient;
  log: RunLog;
  /** For the model provider and GitHub's API (tests point both at loopback doubles). */
  fetch?: typeof fetch;
  retry?: RetryPolicy;
  requestTimeoutMs?: number;
  /** Validation feedback rounds after the first attempt. */
  repairRounds?: number;
  /** The process's environment, of which check-command sees only a safe part (default: process.env). */
  processEnv?: NodeJS.ProcessEnv;
  /** This Action's release (default: the bundle's or package.json's). */
  actionVersion?: string;
  /** The forge calls for the claimed job (default: GitHub's, with the claim's repository token). */
  forge?: (claimed: ClaimResponse, deps: JobRunDependencies) => RunnerForge;
}

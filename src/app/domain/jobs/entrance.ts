import type { AgentJob } from "../../../shared/api-schemas.js";
import type { Db } from "../../store/db.js";
import { cancelJob, type CancelJobInput } from "./cancel.js";
import { addMessage, createJob, type AddMessageInput, type CreateJobInput } from "./commands.js";
import { approvePlan, type ApprovePlanInput } from "./waiting.js";

/**
 * What a person's request (REST, the dashboard, MCP) needs to change a job: the store, the task
 * worker (kicked once the transaction that queued its work has committed, so a run starts now and
 * not at the worker's next poll) and the default rate limit.
 */
export interface JobEntrance {
  db: Db;
  tasks: { kick(): void };
  config: { rateLimitPerHour: number };
}

const limitsOf = (entrance: JobEntrance) => ({ defaultRateLimitPerHour: entrance.config.rateLimitPerHour });

/** A new job in its own transaction; a replayed idempotency key queued nothing, so nothing is kicked. */
export async function startJob(entrance: JobEntrance, input: CreateJobInput): Promise<{ job: AgentJob; replayed: boolean }> {
  const result = await entrance.db.transaction((tx) => createJob(tx, input, limitsOf(entrance)));
  if (!result.replayed) entrance.tasks.kick();
  return result;
}

/** A follow-up in its own transaction; the worker is kicked when it started a run. */
export async function sendMessage(entrance: JobEntrance, input: AddMessageInput): Promise<{ job: AgentJob; dispatched: boolean }> {
  const result = await entrance.db.transaction((tx) => addMessage(tx, input, limitsOf(entrance)));
  if (result.dispatched) entrance.tasks.kick();
  return result;
}

/** A cancel in its own transaction, then the worker (the failed job's tasks: webhooks, the tracking comment). */
export async function cancel(entrance: JobEntrance, input: CancelJobInput): Promise<{ job: AgentJob; cancelled: boolean }> {
  const result = await entrance.db.transaction((tx) => cancelJob(tx, input));
  entrance.tasks.kick();
  return result;
}

/** Approving a job's plan in its own transaction; the run that carries it out is dispatched at once. */
export async function approve(entrance: JobEntrance, input: ApprovePlanInput): Promise<AgentJob> {
  const job = await entrance.db.transaction((tx) => approvePlan(tx, input));
  entrance.tasks.kick();
  return job;
}

import type { AgentJob } from "../../../shared/api-schemas.js";
import type { Queryable } from "../../store/db.js";
import { applyTrigger, lockJob } from "./commands.js";
import { hasEvent, type EventCause } from "./job-events.js";
import { toAgentJob } from "./job-record.js";
import type { FollowUpOrigin } from "./messages.js";
import { stopForgeRun } from "./run-cancel.js";

export interface CancelJobInput {
  projectId: string;
  jobId: string;
  cause: EventCause;
  /** The GitHub login of who cancelled (dashboard user, PR commenter); null for API keys and the operator. */
  author?: string | null;
  /** A `stop` PR comment (or review) cancels once, however often GitHub delivers it. */
  origin?: FollowUpOrigin;
}

/**
 * Stops an active job: it becomes `failed` with who cancelled as its error; a dispatch not yet
 * sent is skipped, the forge run a sent one started is cancelled on the forge (`cancel_run`), and a
 * running Action learns it at its next heartbeat and stops without pushing.
 * Idempotent: a job that is not active is returned as it is (`cancelled: false`).
 */
export async function cancelJob(tx: Queryable, input: CancelJobInput): Promise<{ job: AgentJob; cancelled: boolean }> {
  const row = await lockJob(tx, input.projectId, input.jobId);
  const who = `by ${input.author ? `@${input.author}` : (CANCELLED_BY[input.cause] ?? input.cause)}`;
  const origin = input.origin;
  const from = origin ? (origin.kind === "comment" ? `comment ${origin.commentId}` : origin.kind === "review" ? `review ${origin.reviewId}` : origin.key) : null;
  const detail = from === null ? who : `${who} (${from})`;
  if (row.status !== "active" || (from !== null && (await hasEvent(tx, row.id, "cancelled", detail)))) return { job: toAgentJob(row), cancelled: false };
  const job = await applyTrigger(tx, {
    jobId: row.id,
    trigger: "cancelled",
    cause: input.cause,
    error: `Cancelled ${who}; nothing more was pushed. Send a message to continue on the same branch.`,
    detail,
  });
  await stopForgeRun(tx, row, "the job was cancelled");
  return { job: job as AgentJob, cancelled: true };
}

const CANCELLED_BY: Partial<Record<EventCause, string>> = { api: "an API key", dashboard: "the operator on the dashboard", operator: "the operator" };

import type { JobStatus } from "../../../shared/api-schemas.js";

/**
 * The job lifecycle (docs/architecture.md, "Job lifecycle") as data. Everything that changes a
 * job's status asks `transition` first; the caller records the returned event.
 */
export type JobTrigger =
  /** A follow-up (API, dashboard or PR comment). On `active` it is queued for the next run. */
  | "message"
  /** The runner reported success. */
  | "run_succeeded"
  /** The runner reported failure, the run ended without a report, dispatch failed, or the watchdog fired. */
  | "run_failed"
  /** The job's PR was merged or closed. */
  | "pr_closed"
  /** Someone stopped the active run (API, CLI, dashboard, or `stop` in a PR comment). */
  | "cancelled"
  /** The job waited for its plan's approval or an answer longer than the project's limit. */
  | "wait_expired";

export type Transition =
  | { ok: true; to: JobStatus; dispatch: boolean }
  | { ok: false; reason: string };

const TABLE: Record<JobStatus, Partial<Record<JobTrigger, { to: JobStatus; dispatch: boolean }>>> = {
  active: {
    message: { to: "active", dispatch: false },
    run_succeeded: { to: "completed", dispatch: false },
    run_failed: { to: "failed", dispatch: false },
    pr_closed: { to: "archived", dispatch: false },
    // `failed` (with who cancelled as the error): a client polling for completed, archived or failed
    // stops polling, and a message continues the job on the same branch, as after any failed run.
    cancelled: { to: "failed", dispatch: false },
    wait_expired: { to: "archived", dispatch: false },
  },
  completed: {
    message: { to: "active", dispatch: true },
    pr_closed: { to: "archived", dispatch: false },
  },
  failed: {
    message: { to: "active", dispatch: true },
    pr_closed: { to: "archived", dispatch: false },
  },
  archived: {},
};

export function transition(from: JobStatus, trigger: JobTrigger): Transition {
  const next = TABLE[from][trigger];
  if (next) return { ok: true, ...next };
  if (from === "archived") return { ok: false, reason: "the job is archived (its pull request or merge request was closed, or it waited too long for the user)" };
  return { ok: false, reason: `a job that is ${from} cannot take ${trigger.replace("_", " ")}` };
}

import { z } from "zod";
import type { Logger } from "pino";
import type { Forge } from "../domain/projects.js";
import { CANCEL_RUN_TASK, recordRunCancel, runToCancel, type CancelRunPayload, type RunToCancel } from "../domain/jobs/run-cancel.js";
import type { Db } from "../store/db.js";
import { defineTask, type TaskDefinition } from "../tasks/task-definition.js";
import { forgeWords } from "../../shared/forge-words.js";

/** What a forge made of a cancel: done (cancelled, or it had ended already), refused (said why), or not yet possible. */
export type RunCancelOutcome = { cancelled: string } | { notCancelled: string } | { retry: string };

/** A forge's side of stopping a job: cancel the run Inkwell started for the attempt (`github/run-cancel.ts`, `gitlab/run-cancel.ts`). */
export interface RunCancelForge {
  cancelRun(run: RunToCancel): Promise<RunCancelOutcome>;
}

const payload = z.object({ jobId: z.string(), runAttempt: z.int(), forge: z.enum(["github", "gitlab"]) }) satisfies z.ZodType<CancelRunPayload>;

/**
 * Tries for about ten minutes: a dispatch still being sent, or a GitHub workflow run GitHub has not
 * listed yet, is waited for; then the job's timeline says the run was not cancelled.
 */
export const CANCEL_RUN_RETRY_DELAYS_MS = [3_000, 10_000, 30_000, 60_000, 120_000, 360_000] as const;

/**
 * The `cancel_run` task (queued by `stopForgeRun` when a job stops): the forge named in its payload
 * cancels the run the attempt's dispatch started, found by the claimed run's id or what the dispatch
 * recorded, and the outcome goes on the job's timeline (`run_cancelled`, `run_not_cancelled`).
 * Nothing here fails a job: the job is stopped already. A forge without a canceller (a server with
 * no GitHub App started no workflow run) skips.
 */
export function runCancelTask(db: Db, forges: Partial<Record<Forge, RunCancelForge>>, log: Logger, retryDelaysMs: readonly number[] = CANCEL_RUN_RETRY_DELAYS_MS): TaskDefinition {
  const record = (jobId: string, forge: Forge, outcome: { cancelled: boolean; detail: string }) => db.transaction((tx) => recordRunCancel(tx, jobId, outcome, forge));
  return defineTask({
    kind: CANCEL_RUN_TASK,
    payload,
    retryDelaysMs,
    async run({ jobId, runAttempt, forge }) {
      const run = await runToCancel(db, jobId, runAttempt);
      if (!run) return { skipped: "the job is gone" };
      if (run.claimedRunId === null && run.dispatchedAt === null) {
        if (run.dispatchPending) return { ok: false, retryable: true, error: `the dispatch of run attempt ${runAttempt} is still being sent` };
        return { skipped: `run attempt ${runAttempt} was never dispatched` };
      }
      const canceller = forges[forge];
      if (!canceller) return { skipped: `no ${forgeWords(forge).access} to cancel the run with` };
      const outcome = await canceller.cancelRun(run);
      if ("retry" in outcome) return { ok: false, retryable: true, error: outcome.retry };
      const cancelled = "cancelled" in outcome;
      const detail = cancelled ? outcome.cancelled : outcome.notCancelled;
      if (!cancelled) log.warn({ jobId, runAttempt, forge }, `run not cancelled: ${detail}`);
      await record(jobId, forge, { cancelled, detail });
      return { ok: true, detail };
    },
    async onGiveUp(tx, { jobId, runAttempt, forge }, error) {
      log.warn({ jobId, runAttempt, forge, error }, "gave up cancelling the run");
      await recordRunCancel(tx, jobId, { cancelled: false, detail: `run attempt ${runAttempt} not cancelled: ${error}` }, forge);
    },
  });
}

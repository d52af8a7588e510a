import type { Logger } from "pino";
import type { Db } from "../store/db.js";
import { applyTrigger } from "../domain/jobs.js";
import type { Dispatcher } from "./dispatcher.js";

interface OutboxRow {
  job_id: string;
  run_attempt: number;
  tries: number;
  repo_full_name: string;
  installation_id: string | number | null;
  job_status: string;
  job_run_attempt: number;
}

export interface DispatchWorkerOptions {
  maxTries?: number;
  /** Backoff before try n+1: base * 2^(n-1), capped. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Rescans for work other instances left or due retries. */
  pollIntervalMs?: number;
  /**
   * A claim older than this is taken to be from a crashed worker and is tried again. Longer than
   * any dispatch call may take; a dispatch sent twice is harmless (the runner claims a job once).
   */
  claimTtlSeconds?: number;
  /** True when no other process can hold claims (embedded PGlite): claims left by a crash are released at start. */
  exclusiveStore?: boolean;
}

/**
 * Drains the dispatch outbox: jobs are queued in the transaction that creates or re-activates
 * them, and dispatched here after commit. Nothing is lost on a crash: pending rows are picked up
 * at the next start (or by another instance; rows are claimed with SKIP LOCKED).
 */
export class DispatchWorker {
  readonly #maxTries: number;
  readonly #backoffBaseMs: number;
  readonly #backoffCapMs: number;
  readonly #pollIntervalMs: number;
  readonly #claimTtlSeconds: number;
  readonly #exclusiveStore: boolean;
  #running: Promise<void> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(
    private readonly db: Db,
    private readonly dispatcher: Dispatcher,
    private readonly log: Logger,
    options: DispatchWorkerOptions = {},
  ) {
    this.#maxTries = options.maxTries ?? 6;
    this.#backoffBaseMs = options.backoffBaseMs ?? 2_000;
    this.#backoffCapMs = options.backoffCapMs ?? 60_000;
    this.#pollIntervalMs = options.pollIntervalMs ?? 30_000;
    this.#claimTtlSeconds = options.claimTtlSeconds ?? 60;
    this.#exclusiveStore = options.exclusiveStore ?? false;
  }

  async start(): Promise<void> {
    this.#stopped = false;
    if (this.#exclusiveStore) {
      await this.db.query(`UPDATE dispatch_outbox SET claimed_until = NULL WHERE state = 'pending' AND claimed_until IS NOT NULL`);
    }
    this.kick();
  }

  /** Call after a commit that queued a dispatch. Coalesces: one drain at a time. */
  kick(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#drainLoop().finally(() => {
      this.#running = null;
      if (this.#again) {
        this.#again = false;
        this.kick();
      }
    });
  }

  /** Resolves when no drain is in progress (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.idle();
  }

  async #drainLoop(): Promise<void> {
    try {
      while (!this.#stopped && (await this.#dispatchOne()));
    } catch (error) {
      this.log.error({ err: error }, "dispatch outbox drain failed; retrying on the next poll");
    }
    await this.#scheduleNext();
  }

  async #scheduleNext(): Promise<void> {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    let delay = this.#pollIntervalMs;
    try {
      const rows = await this.db.query<{ wait_ms: number | null }>(
        `SELECT ceil(extract(epoch FROM (min(next_try_at) - now())) * 1000)::int AS wait_ms FROM dispatch_outbox WHERE state = 'pending'`,
      );
      const wait = rows[0]?.wait_ms;
      if (wait !== null && wait !== undefined) delay = Math.min(delay, Math.max(wait, 10));
    } catch {
      // The store may be closing; the poll interval still applies.
    }
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.kick(), delay);
    this.#timer.unref();
  }

  async #dispatchOne(): Promise<boolean> {
    // Claim and read in one statement; SKIP LOCKED lets several instances drain one outbox.
    const [claimed] = await this.db.query<OutboxRow>(
      `WITH next AS (
         SELECT job_id, run_attempt FROM dispatch_outbox
         WHERE state = 'pending' AND next_try_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
         ORDER BY next_try_at LIMIT 1 FOR UPDATE SKIP LOCKED
       ), claim AS (
         UPDATE dispatch_outbox o SET claimed_until = now() + make_interval(secs => $1), tries = o.tries + 1, updated_at = now()
         FROM next WHERE o.job_id = next.job_id AND o.run_attempt = next.run_attempt
         RETURNING o.job_id, o.run_attempt, o.tries - 1 AS tries
       )
       SELECT claim.*, p.repo_full_name, p.installation_id, j.status AS job_status, j.run_attempt AS job_run_attempt
       FROM claim JOIN jobs j ON j.id = claim.job_id JOIN projects p ON p.id = j.project_id`,
      [this.#claimTtlSeconds],
    );
    if (!claimed) return false;
    const log = this.log.child({ jobId: claimed.job_id, runAttempt: claimed.run_attempt });

    if (claimed.job_status !== "active" || claimed.job_run_attempt !== claimed.run_attempt) {
      await this.#settle(claimed, "skipped", null);
      log.debug("dispatch skipped: the job moved on");
      return true;
    }

    const outcome = await this.dispatcher
      .dispatch({
        jobId: claimed.job_id,
        runAttempt: claimed.run_attempt,
        repoFullName: claimed.repo_full_name,
        installationId: claimed.installation_id === null ? null : Number(claimed.installation_id),
      })
      .catch((error: unknown) => ({ ok: false as const, retryable: true, error: error instanceof Error ? error.message : String(error) }));

    if (outcome.ok) {
      await this.db.transaction(async (tx) => {
        await this.#settle(claimed, "done", null, tx);
        await tx.query(
          `INSERT INTO job_events (job_id, type, from_status, to_status, cause, detail) VALUES ($1, 'dispatched', 'active', 'active', 'dispatcher', $2)`,
          [claimed.job_id, `run attempt ${claimed.run_attempt}`],
        );
      });
      log.info("job dispatched");
      return true;
    }

    const tries = claimed.tries + 1;
    if (outcome.retryable && tries < this.#maxTries) {
      const backoff = Math.min(this.#backoffCapMs, this.#backoffBaseMs * 2 ** (tries - 1));
      await this.db.query(
        `UPDATE dispatch_outbox SET claimed_until = NULL, last_error = $3, next_try_at = now() + make_interval(secs => $4), updated_at = now()
         WHERE job_id = $1 AND run_attempt = $2`,
        [claimed.job_id, claimed.run_attempt, outcome.error, backoff / 1000],
      );
      log.warn({ tries, backoffMs: backoff, reason: outcome.error }, "dispatch failed; will retry");
      return true;
    }

    await this.db.transaction(async (tx) => {
      await this.#settle(claimed, "failed", outcome.error, tx);
      await applyTrigger(tx, {
        jobId: claimed.job_id,
        trigger: "run_failed",
        cause: "dispatcher",
        error: outcome.error,
        runAttempt: claimed.run_attempt,
      });
    });
    log.warn({ reason: outcome.error }, "dispatch failed; job marked failed");
    return true;
  }

  async #settle(row: OutboxRow, state: "done" | "failed" | "skipped", error: string | null, tx: { query: Db["query"] } = this.db) {
    await tx.query(
      `UPDATE dispatch_outbox SET state = $3, last_error = $4, claimed_until = NULL, updated_at = now() WHERE job_id = $1 AND run_attempt = $2`,
      [row.job_id, row.run_attempt, state, error],
    );
  }
}

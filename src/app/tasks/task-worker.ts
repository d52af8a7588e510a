import type { Logger } from "pino";
import type { Db, Queryable } from "../store/db.js";
import type { TaskDefinition, TaskOutcome } from "./task-definition.js";

export interface TaskWorkerOptions {
  maxTries?: number;
  /** Backoff before try n+1: base * 2^(n-1), capped. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /**
   * Rescans for due retries and for work other instances queued or left behind. Default: 30 s on an
   * exclusive store (this worker knows every task it waits for), 1 s on a shared one (so no instance
   * idles while another's work waits, e.g. after a crash once its lease ends).
   */
  pollIntervalMs?: number;
  /** A claim older than this is taken to be from a dead worker and the task runs again. */
  claimTtlSeconds?: number;
  /** True when no other process can hold claims (embedded PGlite): claims left by a crash are released at start. */
  exclusiveStore?: boolean;
  /** Tasks run at the same time (GitHub calls take 100–500 ms each). */
  concurrency?: number;
  /** Finished tasks are deleted after this long. */
  retentionHours?: number;
}

interface TaskRow {
  id: string | number;
  kind: string;
  payload: string;
  tries: number;
}

/**
 * Drains the `tasks` table: side effects (GitHub calls) queued in the transactions that need them
 * and carried out after commit, retried with backoff, never lost on a crash. Claims use
 * FOR UPDATE SKIP LOCKED with a lease, so several instances can share one PostgreSQL.
 */
export class TaskWorker {
  readonly #options: Required<TaskWorkerOptions>;
  readonly #inFlight = new Set<Promise<void>>();
  #pumping: Promise<void> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = true;
  #lastPrune = 0;
  readonly #definitions: ReadonlyMap<string, TaskDefinition>;

  constructor(
    private readonly db: Db,
    tasks: readonly TaskDefinition[],
    private readonly log: Logger,
    options: TaskWorkerOptions = {},
  ) {
    this.#definitions = new Map(tasks.map((task) => [task.kind, task]));
    this.#options = {
      maxTries: 6,
      backoffBaseMs: 2_000,
      backoffCapMs: 60_000,
      pollIntervalMs: options.exclusiveStore ? 30_000 : 1_000,
      claimTtlSeconds: 60,
      exclusiveStore: false,
      concurrency: 4,
      retentionHours: 24 * 7,
      ...options,
    };
  }

  async start(): Promise<void> {
    this.#stopped = false;
    if (this.#options.exclusiveStore) {
      await this.db.query(`UPDATE tasks SET claimed_until = NULL WHERE state = 'pending' AND claimed_until IS NOT NULL`);
    }
    this.kick();
  }

  /** Call after committing a change that queued a task. Coalesces with a pump in progress. */
  kick(): void {
    if (this.#stopped) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = null;
      if (this.#again) {
        this.#again = false;
        this.kick();
      }
    });
  }

  /** Resolves when nothing is being claimed or run (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.#pumping || this.#inFlight.size > 0) await Promise.all([this.#pumping, ...this.#inFlight]);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.idle();
  }

  async #pump(): Promise<void> {
    let drained = false;
    try {
      while (!this.#stopped && this.#inFlight.size < this.#options.concurrency) {
        const task = await this.#claim();
        if (!task) {
          drained = true;
          break;
        }
        const running: Promise<void> = this.#execute(task).finally(() => {
          this.#inFlight.delete(running);
          this.kick();
        });
        this.#inFlight.add(running);
      }
      await this.#prune();
    } catch (error) {
      this.log.error({ err: error }, "task queue scan failed; retrying on the next poll");
      drained = true;
    }
    // While tasks run, each completion pumps again; the next wake-up only matters once idle.
    if (drained || this.#inFlight.size === 0) await this.#scheduleNext();
  }

  async #claim(): Promise<TaskRow | undefined> {
    const rows = await this.db.query<TaskRow>(
      `WITH next AS (
         SELECT id FROM tasks
         WHERE state = 'pending' AND next_try_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
         ORDER BY next_try_at LIMIT 1 FOR UPDATE SKIP LOCKED
       )
       UPDATE tasks t SET claimed_until = now() + make_interval(secs => $1), tries = t.tries + 1, run_again = false, updated_at = now()
       FROM next WHERE t.id = next.id
       RETURNING t.id, t.kind, t.payload, t.tries`,
      [this.#options.claimTtlSeconds],
    );
    return rows[0];
  }

  async #execute(task: TaskRow): Promise<void> {
    const log = this.log.child({ taskId: String(task.id), kind: task.kind, attempt: task.tries });
    const handler = this.#definitions.get(task.kind);
    const parsed = handler?.payload.safeParse(JSON.parse(task.payload));
    // A payload that does not parse is given up at once: no handler sees it, not even onGiveUp.
    const payload = parsed?.success ? parsed.data : undefined;
    let outcome: TaskOutcome;
    if (!handler || !parsed) {
      outcome = { ok: false, retryable: false, error: `no handler for task kind ${task.kind}` };
    } else if (!parsed.success) {
      outcome = { ok: false, retryable: false, error: `the payload of this ${task.kind} task is not one it can run: ${parsed.error.message}` };
    } else {
      outcome = await handler.run(parsed.data, task.tries).catch((error: unknown) => ({
        ok: false as const,
        retryable: true,
        error: error instanceof Error ? error.message : String(error),
      }));
    }
    try {
      if ("skipped" in outcome) {
        await this.#finish(task, "skipped", outcome.skipped);
        log.debug({ reason: outcome.skipped }, "task skipped");
      } else if (outcome.ok) {
        await this.db.transaction(async (tx) => {
          await this.#finish(task, "done", null, tx);
          if (payload !== undefined) await handler?.onDone?.(tx, payload, outcome.detail);
        });
        log.debug("task done");
      } else if (outcome.retryable && this.#retryDelayMs(handler, task.tries) !== null) {
        const backoffMs = this.#retryDelayMs(handler, task.tries) as number;
        await this.db.query(
          `UPDATE tasks SET claimed_until = NULL, last_error = $2, next_try_at = now() + make_interval(secs => $3), updated_at = now() WHERE id = $1`,
          [task.id, outcome.error, backoffMs / 1000],
        );
        log.warn({ backoffMs, reason: outcome.error }, "task failed; will retry");
      } else {
        await this.db.transaction(async (tx) => {
          await this.#finish(task, "failed", outcome.error, tx);
          if (payload !== undefined) await handler?.onGiveUp?.(tx, payload, outcome.error);
        });
        log.warn({ reason: outcome.error }, "task failed for good");
      }
    } catch (error) {
      // The lease lapses and the task runs again; nothing is lost.
      log.error({ err: error }, "could not record a task's outcome");
    }
  }

  /** How long to wait before the try after try `tries`; null when there is none. */
  #retryDelayMs(handler: TaskDefinition | undefined, tries: number): number | null {
    if (handler?.retryDelaysMs) return handler.retryDelaysMs[tries - 1] ?? null;
    return tries < this.#options.maxTries ? Math.min(this.#options.backoffCapMs, this.#options.backoffBaseMs * 2 ** (tries - 1)) : null;
  }

  /** Done, unless new work arrived for the same key while it ran: then it runs once more. */
  async #finish(task: TaskRow, state: "done" | "failed" | "skipped", error: string | null, tx: Queryable = this.db) {
    await tx.query(
      `UPDATE tasks SET state = CASE WHEN run_again AND $2 <> 'failed' THEN 'pending' ELSE $2 END,
         tries = CASE WHEN run_again THEN 0 ELSE tries END, run_again = false,
         last_error = $3, claimed_until = NULL, updated_at = now()
       WHERE id = $1`,
      [task.id, state, error],
    );
  }

  async #prune(): Promise<void> {
    if (Date.now() - this.#lastPrune < 3_600_000) return;
    this.#lastPrune = Date.now();
    await this.db.query(`DELETE FROM tasks WHERE state <> 'pending' AND updated_at < now() - make_interval(hours => $1)`, [this.#options.retentionHours]);
  }

  async #scheduleNext(): Promise<void> {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    let delay = this.#options.pollIntervalMs;
    try {
      const rows = await this.db.query<{ wait_ms: number | null }>(
        `SELECT ceil(extract(epoch FROM (min(greatest(next_try_at, coalesce(claimed_until, next_try_at))) - now())) * 1000)::int AS wait_ms
         FROM tasks WHERE state = 'pending'`,
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
}

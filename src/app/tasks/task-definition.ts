import type { z } from "zod";
import type { Queryable } from "../store/db.js";

export type TaskOutcome =
  /** `detail`: what it started, in a few words, handed to `onDone` to record. */
  | { ok: true; detail?: string }
  /** `retryable` failures run again with backoff until `maxTries`; then, or at once otherwise, the task is given up. */
  | { ok: false; retryable: boolean; error: string }
  /** Nothing to do any more (the world moved on). */
  | { skipped: string };

/**
 * One kind of background task: its name, the payload it is queued with, and what carries it out.
 * The worker parses each stored payload with `payload` before any handler sees it.
 */
export interface TaskDefinition<P = unknown> {
  kind: string;
  payload: z.ZodType<P>;
  run(payload: P, attempt: number): Promise<TaskOutcome>;
  /**
   * Its own retry schedule: the wait before try n+1 is `retryDelaysMs[n-1]`, and it is given up
   * after the last. Without one, the worker's exponential backoff and `maxTries` apply.
   */
  retryDelaysMs?: readonly number[];
  /** Runs in the transaction that marks the task done. */
  onDone?(tx: Queryable, payload: P, detail: string | undefined): Promise<void>;
  /** Runs in the transaction that marks the task failed for good. */
  onGiveUp?(tx: Queryable, payload: P, error: string): Promise<void>;
}

/** Keeps `P` tied between the schema and the handlers, so a registry of mixed kinds stays type-checked. */
export const defineTask = <P>(definition: TaskDefinition<P>): TaskDefinition => definition as TaskDefinition;

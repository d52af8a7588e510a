import type { HeartbeatResponse } from "../shared/runner-schemas.js";

/** A cancel reaches a running Action at its next beat, so within this long. */
export const MAX_BEAT_GAP_MS = 10_000;

export interface HeartbeatsOptions {
  send: (progress: string | undefined) => Promise<HeartbeatResponse>;
  /** The service's heartbeat period; beats go out at least twice per period, and at least every MAX_BEAT_GAP_MS. */
  periodSeconds: number;
  /** Called once when the service says the job no longer wants this run. */
  onCancel: () => void;
  onError?: (error: unknown) => void;
}

/**
 * Keeps the job alive while the agent works: a beat on a timer, and one with a progress line
 * whenever there is news (at most one in flight). A failed beat is logged and the next one retries;
 * the service's watchdog only fails the job after a whole timeout without any.
 */
export class Heartbeats {
  #timer: NodeJS.Timeout | null = null;
  #inFlight: Promise<void> | null = null;
  #pending: string | undefined;
  #cancelled = false;

  constructor(private readonly options: HeartbeatsOptions) {}

  start(): void {
    const everyMs = Math.max(1_000, Math.min(MAX_BEAT_GAP_MS, (this.options.periodSeconds * 1_000) / 2));
    this.#timer = setInterval(() => this.beat(), everyMs);
    this.#timer.unref();
  }

  /** Sends a beat now (with `progress` when given); coalesces beats asked for while one is in flight. */
  beat(progress?: string): void {
    if (progress) this.#pending = progress;
    if (this.#inFlight) return;
    const line = this.#pending;
    this.#pending = undefined;
    this.#inFlight = this.options
      .send(line)
      .then((answer) => {
        if (answer.cancel && !this.#cancelled) {
          this.#cancelled = true;
          this.options.onCancel();
        }
      })
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.#inFlight = null;
        if (this.#pending) this.beat();
      });
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#pending = undefined;
    await this.#inFlight;
  }
}

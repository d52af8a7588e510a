import type { HitBatchResult } from "../../shared/analytics-schemas.js";
import { MAX_HITS_PER_BATCH } from "../../shared/analytics-vocabulary.js";
import { CliError } from "../errors.js";
import type { ImportHit } from "./fields.js";
import { addExample, type ImportSummary } from "./summary.js";

export type SentHit = ImportHit & { id: string };
export type SendHits = (hits: SentHit[]) => Promise<HitBatchResult>;

interface Cut {
  done: boolean;
  checkpoint: (() => void) | undefined;
}

/**
 * Sends hits in batches of 1,000 with a few in flight, and counts the server's answers into the
 * summary. A checkpoint given with a batch runs once that batch and every batch cut before it were
 * accepted, in the order they were cut, so a position saved there never passes an unsent line.
 */
export class HitSender {
  readonly #send: SendHits;
  readonly #summary: ImportSummary;
  readonly #inFlight: number;
  readonly #accepted: () => void;
  #batch: SentHit[] = [];
  #lineNumbers: number[] = [];
  readonly #cuts: Cut[] = [];
  readonly #pending = new Set<Promise<void>>();
  #failure: unknown = null;

  constructor(options: { send: SendHits; summary: ImportSummary; inFlight?: number; onAccepted?: () => void }) {
    this.#send = options.send;
    this.#summary = options.summary;
    this.#inFlight = options.inFlight ?? 4;
    this.#accepted = options.onAccepted ?? (() => undefined);
  }

  get failed(): boolean {
    return this.#failure !== null;
  }

  /** Adds a hit of the given line; true when the batch is full and should be flushed. */
  add(hit: SentHit, lineNumber: number): boolean {
    this.#batch.push(hit);
    this.#lineNumbers.push(lineNumber);
    return this.#batch.length >= MAX_HITS_PER_BATCH;
  }

  /** Cuts the batch (possibly empty, to place a checkpoint only) and waits while too many are in flight. */
  async flush(checkpoint?: () => void): Promise<void> {
    const cut: Cut = { done: false, checkpoint };
    this.#cuts.push(cut);
    const hits = this.#batch;
    const lineOf = this.#lineNumbers;
    this.#batch = [];
    this.#lineNumbers = [];
    if (hits.length === 0) {
      cut.done = true;
      this.#runCheckpoints();
      return;
    }
    const sending = this.#send(hits)
      .then((result) => {
        this.#summary.accepted += result.accepted;
        this.#summary.alreadyImported += result.duplicates;
        this.#summary.skipped.rejected += result.rejected.length;
        for (const r of result.rejected) addExample(this.#summary, `line ${lineOf[r.index]}: rejected by the server: ${r.error}`);
        cut.done = true;
        this.#runCheckpoints();
        this.#accepted();
      })
      .catch((error: unknown) => {
        this.#failure ??= error;
      })
      .finally(() => this.#pending.delete(sending));
    this.#pending.add(sending);
    while (this.#pending.size >= this.#inFlight) await Promise.race(this.#pending);
  }

  /** Waits for every batch; throws the first failure (after which no later checkpoint ran). */
  async finish(): Promise<void> {
    await Promise.all(this.#pending);
    if (this.#failure) throw this.#failure instanceof CliError ? this.#failure : new CliError(String(this.#failure));
  }

  #runCheckpoints(): void {
    while (this.#cuts[0]?.done && this.#failure === null) {
      const cut = this.#cuts.shift();
      try {
        cut?.checkpoint?.();
      } catch (error) {
        this.#failure ??= error;
      }
    }
  }
}

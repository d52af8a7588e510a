import type { RunPhaseRecord } from "../shared/job-outcome-schemas.js";

/** One step of a run and the time it took; `background` when it ran while other work went on. */
export type RunPhase = RunPhaseRecord;

/**
 * Where a run's time goes, phase by phase (claim, checkout, each agent and validation round, push,
 * pull request, report), for the run's record and the Action's outputs: a slow run says why.
 */
export class RunPhases {
  readonly #phases: RunPhase[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Runs `work` as the phase `name`; its time counts even when it throws. */
  async time<T>(name: string, work: () => Promise<T>): Promise<T> {
    const started = this.now();
    try {
      return await work();
    } finally {
      this.add(name, this.now() - started);
    }
  }

  add(name: string, ms: number, options: { background?: boolean } = {}): void {
    this.#phases.push({ name, ms: Math.max(0, Math.round(ms)), ...(options.background ? { background: true as const } : {}) });
  }

  list(): RunPhase[] {
    return this.#phases.map((phase) => ({ ...phase }));
  }
}

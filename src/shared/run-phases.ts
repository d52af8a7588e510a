import type { RunPhaseRecord } from "./job-outcome-schemas.js";

/** `claim 0.4 s · checkout 1.2 s · …`, background phases marked: a run's time in one line (Action log, CLI). */
export const describePhases = (phases: RunPhaseRecord[]) =>
  phases.map((phase) => `${phase.name} ${(phase.ms / 1000).toFixed(1)} s${phase.background ? " (background)" : ""}`).join(" · ");

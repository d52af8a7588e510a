// The counter rows robots-plan.ts writes (tables.ts stores them).

/** AI agents' views per day, robots.txt version in force (0: none yet) and verdict (VERDICT_CODE). */
export interface DailyRobotsViews {
  projectId: string;
  day: number;
  agentId: number;
  versionId: number;
  verdict: number;
  views: number;
}

export interface RobotsDisallowedViews {
  projectId: string;
  day: number;
  agentId: number;
  pathId: number;
  versionId: number;
  /** The line of the rule that disallowed the views (0 in rows counted before lines were kept). */
  line: number;
  views: number;
  /** Epoch milliseconds. */
  firstSeen: number;
  lastSeen: number;
}

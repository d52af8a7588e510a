/** The daily per-agent rows a rollup chunk adds to (planRollup builds them, tables.ts writes them). */

/** An agent's views per project and epoch day, by how its claim checked out (spoofed views are not counted as the agent's). */
export interface DailyAgentViews {
  projectId: string;
  day: number;
  agentId: number;
  verified: number;
  spoofed: number;
  unverifiable: number;
}

/** What an agent read per day: views of a page (verified + unverifiable), how many were verified, how many got a 4xx/5xx; and the spoofed claims of its name on the page (not its views). */
export interface DailyAgentPages {
  projectId: string;
  day: number;
  agentId: number;
  pathId: number;
  views: number;
  failed: number;
  verified: number;
  spoofed: number;
}

/** AI views answered with a 4xx/5xx, per page, status and agent. */
export interface DailyFailures {
  projectId: string;
  day: number;
  pathId: number;
  status: number;
  agentId: number;
  views: number;
}

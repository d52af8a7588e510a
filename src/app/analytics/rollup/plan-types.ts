import type { ClassCode } from "../classify/traffic-class.js";
import type { DailyAgentPages, DailyAgentViews, DailyFailures } from "./agent-rows.js";

// What a rollup plan reads (a chunk's views, visitors' masks) and the counter rows it writes (plan.ts).

/** One inbox view, its path already resolved to an id. */
export interface ChunkView {
  projectId: string;
  /** The view's time, epoch milliseconds (which robots.txt version was in force: robots-plan.ts). */
  at: number;
  /** Epoch day of the view. */
  day: number;
  /** Epoch day its salt window starts on (bit 0 of its masks). */
  windowStart: number;
  pathId: number;
  /** An AI agent's path and query as fetched, when not the page's path (what robots.txt judges: robots-plan.ts). */
  fetched?: string | null;
  visitor: string;
  trafficClass: ClassCode;
  /** The AI sub-category, for AI views. */
  category: string | null;
  /** The AI agent the view claims to be (also when the claim was found spoofed), else null. */
  agentId: number | null;
  /** VERIFICATION_CODE of the agent's claim; null without an agent. */
  verification: number | null;
  /** FORMAT_CODE (read-format.ts). */
  format: number;
  /** The HTTP status the site answered with. */
  status: number;
  /** A person's arrival: the source's group id (referral-groups.ts), else null. */
  sourceId: number | null;
  /** The referral groups the view counts in (its source's, its channel's on the site, page and sections). */
  groupIds: readonly number[];
}

/**
 * The days of a salt window on which one visitor viewed one page (or the site), as bit masks: in
 * any format (the site's masks), or in one format (the format masks: rollup/format-plan.ts).
 */
export interface VisitorMask {
  projectId: string;
  windowStart: number;
  /** FORMAT_CODE, in a format's masks only. */
  format?: number;
  pathId: number;
  visitor: string;
  human: number;
  ai: number;
  bot: number;
  /** Site masks only: the formats other than html ever read (bit 1 << FORMAT_CODE), 0 for a pair that only read html. */
  formats?: number;
}

/** Distinct-visitor counter deltas: `total` counts the union of human and AI; bots are apart. */
export interface ReachCounts {
  human: number;
  ai: number;
  bot: number;
  total: number;
}

/** Views per project, epoch day and page, by class. */
export interface DailyViews {
  projectId: string;
  day: number;
  pathId: number;
  human: number;
  ai: number;
  bot: number;
}

/** Views per project, epoch day and AI sub-category. */
export interface DailyCategoryViews {
  projectId: string;
  day: number;
  trafficClass: ClassCode;
  category: string;
  views: number;
}

/** Distinct visitors of a page over its whole salt window (in one format, in the format family). */
export interface WindowReach extends ReachCounts {
  projectId: string;
  windowStart: number;
  format?: number;
  pathId: number;
}

/** Visitors whose first day in the window is `windowDay` (days count from the window's start). */
export interface FirstVisits extends WindowReach {
  windowDay: number;
}

/** Visitors with a view on `windowDay` whose previous day with a view was `previousWindowDay`. */
export interface Returns extends FirstVisits {
  previousWindowDay: number;
}

/** Views per project, epoch day, page and format, by class. */
export interface DailyFormatViews extends DailyViews {
  format: number;
}

export interface RollupPlan {
  dailyViews: DailyViews[];
  categoryViews: DailyCategoryViews[];
  formatViews: DailyFormatViews[];
  agentViews: DailyAgentViews[];
  agentPages: DailyAgentPages[];
  failures: DailyFailures[];
  /** Deltas from here on: counters that sum to zero are left out. */
  windowReach: WindowReach[];
  firstVisits: FirstVisits[];
  returns: Returns[];
}

/** The chunk's masks by key: one per (project, window, page, visitor), or (project, window, format, page, visitor). */
export type ChunkMasks = ReadonlyMap<string, VisitorMask>;

/** Stored masks as read, or already by key (byMaskKey: several plans of one chunk share it). */
export type StoredMasks = readonly VisitorMask[] | ReadonlyMap<string, VisitorMask>;

import { monthStartOf } from "../../../shared/epoch-days.js";
import { NO_PREVIOUS_DAY, pairDeltas } from "./reach.js";
import { entry, SITE_PATH_ID } from "./plan.js";
import type { ChunkView } from "./plan-types.js";
import { CLASS_CODE } from "../classify/traffic-class.js";

/**
 * What a chunk adds to the per-agent aggregates that need more than a daily sum: each agent's
 * visitor masks and the first-visit and return counters derived from them (the same scheme as the
 * site's, reach.ts), and the days of each month an agent read each page (the agents report's
 * distinct pages over any range). Spoofed views are not the agent's and count in none of them.
 */

/** The days of a salt window on which one visitor, as one agent, read one page (or any page: path 0). */
export interface AgentMask {
  projectId: string;
  windowStart: number;
  agentId: number;
  pathId: number;
  visitor: string;
  days: number;
}

/** Distinct visitors of an agent whose first day in the window is `windowDay`. */
export interface AgentFirstVisits {
  projectId: string;
  windowStart: number;
  agentId: number;
  windowDay: number;
  pathId: number;
  visitors: number;
}

/** An agent's visitors with a view on `windowDay` whose previous day with a view was `previousWindowDay`. */
export interface AgentReturns extends AgentFirstVisits {
  previousWindowDay: number;
}

/** The days of a calendar month on which an agent read a page (any visitor; failed fetches too). */
export interface AgentPageMonth {
  projectId: string;
  /** Epoch day of the month's first day. */
  monthStart: number;
  agentId: number;
  pathId: number;
  days: number;
}

/** The chunk's agent masks by key: one per (project, window, agent, page, visitor). */
export type ChunkAgentMasks = ReadonlyMap<string, AgentMask>;

const agentMaskKey = (of: Pick<AgentMask, "projectId" | "windowStart" | "agentId" | "pathId" | "visitor">) =>
  `${of.projectId}\n${of.windowStart}\n${of.agentId}\n${of.pathId}\n${of.visitor}`;

/**
 * The days the chunk's views counted as an agent's set (failed fetches included: the agent came),
 * per page, per section of the page (an agent's distinct visitors under a path prefix;
 * page-sections.ts) and for any page (path 0).
 */
export function chunkAgentMasks(views: readonly ChunkView[], sectionsOf: ReadonlyMap<number, readonly number[]>): ChunkAgentMasks {
  const masks = new Map<string, AgentMask>();
  for (const view of views) {
    if (view.trafficClass !== CLASS_CODE.ai || view.agentId === null) continue;
    const { projectId, windowStart, agentId, visitor } = view;
    for (const pathId of [view.pathId, SITE_PATH_ID, ...(sectionsOf.get(view.pathId) ?? [])]) {
      const key = { projectId, windowStart, agentId, pathId, visitor };
      entry(masks, agentMaskKey(key), () => ({ ...key, days: 0 })).days |= 1 << (view.day - windowStart);
    }
  }
  return masks;
}

/**
 * The first-visit and return counters of each agent (reach.ts) implied by widening the stored
 * agent masks (`stored`, as they were before the chunk) with the chunk's.
 */
export interface AgentReachPlan {
  firstVisits: AgentFirstVisits[];
  returns: AgentReturns[];
}

export function planAgentReach(stored: readonly AgentMask[], masks: ChunkAgentMasks): AgentReachPlan {
  const storedByKey = new Map(stored.map((mask) => [agentMaskKey(mask), mask.days]));
  const firstVisits = new Map<string, AgentFirstVisits>();
  const returns = new Map<string, AgentReturns>();
  for (const [key, added] of masks) {
    const before = storedByKey.get(key) ?? 0;
    const { projectId, windowStart, agentId, pathId } = added;
    pairDeltas(before, before | added.days, (windowDay, previousWindowDay, delta) => {
      const counter =
        previousWindowDay === NO_PREVIOUS_DAY
          ? entry(firstVisits, `${projectId}\n${windowStart}\n${agentId}\n${windowDay}\n${pathId}`, () => ({ projectId, windowStart, agentId, windowDay, pathId, visitors: 0 }))
          : entry(returns, `${projectId}\n${windowStart}\n${agentId}\n${windowDay}\n${previousWindowDay}\n${pathId}`, () => ({
              projectId,
              windowStart,
              agentId,
              windowDay,
              previousWindowDay,
              pathId,
              visitors: 0,
            }));
      counter.visitors += delta;
    });
  }
  const nonZeroVisitors = <T extends { visitors: number }>(counters: Map<string, T>) => [...counters.values()].filter((c) => c.visitors !== 0);
  return { firstVisits: nonZeroVisitors(firstVisits), returns: nonZeroVisitors(returns) };
}

/**
 * The chunk's agent pages per month, with their days as a mask: distinct pages over any range are
 * then a count of (agent, page) rows per month overlapping it, whatever the views or days.
 */
export function chunkAgentPageMonths(views: readonly ChunkView[]): AgentPageMonth[] {
  const months = new Map<string, AgentPageMonth>();
  let lastDay = Number.NaN;
  let monthStart = 0;
  for (const view of views) {
    if (view.trafficClass !== CLASS_CODE.ai || view.agentId === null) continue;
    if (view.day !== lastDay) [lastDay, monthStart] = [view.day, monthStartOf(view.day)];
    const { projectId, agentId, pathId } = view;
    entry(months, `${projectId}\n${monthStart}\n${agentId}\n${pathId}`, () => ({ projectId, monthStart, agentId, pathId, days: 0 })).days |= 1 << (view.day - monthStart);
  }
  return [...months.values()];
}

import { NO_PREVIOUS_DAY, reachDeltas } from "./reach.js";
import { CLASS_CODE, type ClassCode } from "./traffic-class.js";

/**
 * What one rollup chunk changes, worked out without any I/O: the rollup ORs the chunk's masks
 * (`chunkMasks`) into the stored ones, which returns them as they were, asks `planRollup` for the
 * counter deltas that widening implies, and writes them.
 */

/** Path id 0 stands for the whole site (the totals row). */
export const SITE_PATH_ID = 0;

/** One inbox view, its path already resolved to an id. */
export interface ChunkView {
  projectId: string;
  /** Epoch day of the view. */
  day: number;
  /** Epoch day its salt window starts on (bit 0 of its masks). */
  windowStart: number;
  pathId: number;
  visitor: string;
  trafficClass: ClassCode;
  /** The AI sub-category, for AI views. */
  category: string | null;
}

/** The days of a salt window on which one visitor viewed one page (or the site), as bit masks. */
export interface VisitorMask {
  projectId: string;
  windowStart: number;
  pathId: number;
  visitor: string;
  human: number;
  ai: number;
}

/** Distinct-visitor counter deltas: `total` counts the union of human and AI. */
export interface ReachCounts {
  human: number;
  ai: number;
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

/** Distinct visitors of a page over its whole salt window. */
export interface WindowReach extends ReachCounts {
  projectId: string;
  windowStart: number;
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

export interface RollupPlan {
  dailyViews: DailyViews[];
  categoryViews: DailyCategoryViews[];
  /** Deltas from here on: counters that sum to zero are left out. */
  windowReach: WindowReach[];
  firstVisits: FirstVisits[];
  returns: Returns[];
}

const NO_MASK = { human: 0, ai: 0 };

/** The chunk's masks by key: one per (project, window, page, visitor). */
export type ChunkMasks = ReadonlyMap<string, VisitorMask>;

/** The key of a mask: the view's own page, or `pathId` (the site row) instead. */
const maskKey = (of: Pick<VisitorMask, "projectId" | "windowStart" | "pathId" | "visitor">, pathId = of.pathId) =>
  `${of.projectId}\n${of.windowStart}\n${pathId}\n${of.visitor}`;

/**
 * The days the chunk's human and AI views set, one mask per (project, window, page, visitor) and
 * one per (project, window, site, visitor): the stored masks to read before planning. Bot views
 * set none.
 */
export function chunkMasks(views: readonly ChunkView[]): ChunkMasks {
  const masks = new Map<string, VisitorMask>();
  const setDay = (view: ChunkView, pathId: number) => {
    const { projectId, windowStart, visitor } = view;
    const mask = entry(masks, maskKey(view, pathId), () => ({ projectId, windowStart, pathId, visitor, human: 0, ai: 0 }));
    const bit = 1 << (view.day - windowStart);
    if (view.trafficClass === CLASS_CODE.human) mask.human |= bit;
    else mask.ai |= bit;
  };
  for (const view of views) {
    if (view.trafficClass === CLASS_CODE.bot) continue;
    setDay(view, view.pathId);
    setDay(view, SITE_PATH_ID);
  }
  return masks;
}

/**
 * Everything a chunk of views adds to the counters: the views and AI categories per day, and the
 * reach counters (reach.ts) implied by widening the stored per-visitor masks with the chunk's.
 * `stored` holds the masks stored for the chunk's keys before it (others are ignored; a key
 * without one starts empty); `masks` is `chunkMasks(views)` when the caller already has it.
 */
export function planRollup(views: readonly ChunkView[], stored: readonly VisitorMask[], masks = chunkMasks(views)): RollupPlan {
  const storedByKey = new Map(stored.map((mask) => [maskKey(mask), mask]));
  const windowReach = new Map<string, WindowReach>();
  const firstVisits = new Map<string, FirstVisits>();
  const returns = new Map<string, Returns>();
  for (const [key, added] of masks) {
    const before = storedByKey.get(key) ?? NO_MASK;
    const human = before.human | added.human;
    const ai = before.ai | added.ai;
    if (human === before.human && ai === before.ai) continue;
    const { projectId, windowStart, pathId } = added;
    const newcomer: ReachCounts = {
      human: before.human === 0 && human !== 0 ? 1 : 0,
      ai: before.ai === 0 && ai !== 0 ? 1 : 0,
      total: (before.human | before.ai) === 0 ? 1 : 0,
    };
    if (newcomer.human + newcomer.ai + newcomer.total > 0) {
      const counter = entry(windowReach, `${projectId}\n${windowStart}\n${pathId}`, () => ({ projectId, windowStart, pathId, human: 0, ai: 0, total: 0 }));
      addCounts(counter, newcomer);
    }
    reachDeltas({ human: [before.human, human], ai: [before.ai, ai] }, (series, windowDay, previousWindowDay, delta) => {
      const counter =
        previousWindowDay === NO_PREVIOUS_DAY
          ? entry(firstVisits, `${projectId}\n${windowStart}\n${windowDay}\n${pathId}`, () => ({ projectId, windowStart, windowDay, pathId, human: 0, ai: 0, total: 0 }))
          : entry(returns, `${projectId}\n${windowStart}\n${windowDay}\n${previousWindowDay}\n${pathId}`, () => ({
              projectId,
              windowStart,
              windowDay,
              previousWindowDay,
              pathId,
              human: 0,
              ai: 0,
              total: 0,
            }));
      counter[series] += delta;
    });
  }
  return {
    ...countViews(views),
    windowReach: nonZero(windowReach),
    firstVisits: nonZero(firstVisits),
    returns: nonZero(returns),
  };
}

/** Views per day and page by class (bots included), and AI views per day and sub-category. */
function countViews(views: readonly ChunkView[]): Pick<RollupPlan, "dailyViews" | "categoryViews"> {
  const daily = new Map<string, DailyViews>();
  const categories = new Map<string, DailyCategoryViews>();
  for (const view of views) {
    const { projectId, day, pathId } = view;
    const counter = entry(daily, `${projectId}\n${day}\n${pathId}`, () => ({ projectId, day, pathId, human: 0, ai: 0, bot: 0 }));
    counter[CLASS_NAME[view.trafficClass]]++;
    const category = view.trafficClass === CLASS_CODE.ai ? view.category : null;
    if (category) entry(categories, `${projectId}\n${day}\n${category}`, () => ({ projectId, day, trafficClass: CLASS_CODE.ai, category, views: 0 })).views++;
  }
  return { dailyViews: [...daily.values()], categoryViews: [...categories.values()] };
}

const CLASS_NAME = { [CLASS_CODE.human]: "human", [CLASS_CODE.ai]: "ai", [CLASS_CODE.bot]: "bot" } as const;

function addCounts(counter: ReachCounts, delta: ReachCounts): void {
  counter.human += delta.human;
  counter.ai += delta.ai;
  counter.total += delta.total;
}

const nonZero = <T extends ReachCounts>(counters: Map<string, T>): T[] =>
  [...counters.values()].filter((counter) => counter.human !== 0 || counter.ai !== 0 || counter.total !== 0);

/** The map's entry for `key`, created by `create` the first time. */
function entry<T>(map: Map<string, T>, key: string, create: () => T): T {
  let found = map.get(key);
  if (!found) map.set(key, (found = create()));
  return found;
}

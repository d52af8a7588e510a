import { NO_PREVIOUS_DAY, reachDeltas, type Series } from "./reach.js";
import { VERIFICATION_CODE } from "../classify/verification.js";
import { CLASS_CODE } from "../classify/traffic-class.js";
import { FORMAT_CODE } from "../ingest/read-format.js";
import type { DailyAgentPages, DailyAgentViews, DailyFailures } from "./agent-rows.js";
import type { ChunkView, VisitorMask, ReachCounts, DailyViews, DailyCategoryViews, WindowReach, FirstVisits, Returns, DailyFormatViews, RollupPlan, ChunkMasks, StoredMasks } from "./plan-types.js";

const HTML_FORMAT = FORMAT_CODE.html;

/**
 * What one rollup chunk changes, worked out without any I/O: the rollup ORs the chunk's masks
 * (`chunkMasks`) into the stored ones, which returns them as they were, asks `planRollup` for the
 * counter deltas that widening implies, and writes them.
 */

/** Path id 0 stands for the whole site (the totals row). */
export const SITE_PATH_ID = 0;

const NO_MASK = { human: 0, ai: 0, bot: 0 };

export const byMaskKey = (stored: StoredMasks): ReadonlyMap<string, VisitorMask> =>
  stored instanceof Map ? stored : new Map((stored as readonly VisitorMask[]).map((mask) => [maskKey(mask), mask]));

/** The key of a mask: the view's own page, or `pathId` (the site row) instead. */
export const maskKey = (of: Pick<VisitorMask, "projectId" | "windowStart" | "format" | "pathId" | "visitor">, pathId = of.pathId) =>
  `${of.projectId}\n${of.windowStart}\n${of.format ?? ""}\n${pathId}\n${of.visitor}`;

/** A view answered with a 4xx/5xx read nothing: it counts only in the agent reports and failures. */
export const isFailure = (status: number) => status >= 400;

/**
 * The days the chunk's views set (failed ones excepted), one mask per (project, window, page, visitor) and one per
 * (project, window, site, visitor): the stored masks to read before planning.
 */
export function chunkMasks(views: readonly ChunkView[]): ChunkMasks {
  const masks = new Map<string, VisitorMask>();
  const setDay = (view: ChunkView, pathId: number) => {
    const { projectId, windowStart, visitor } = view;
    const mask = entry(masks, maskKey({ projectId, windowStart, pathId, visitor }), () => ({ projectId, windowStart, pathId, visitor, human: 0, ai: 0, bot: 0, formats: 0 }));
    mask[CLASS_NAME[view.trafficClass]] |= 1 << (view.day - windowStart);
    if (view.format !== HTML_FORMAT) mask.formats = (mask.formats ?? 0) | (1 << view.format);
  };
  for (const view of views) {
    if (isFailure(view.status)) continue;
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
export function planRollup(views: readonly ChunkView[], stored: StoredMasks, masks = chunkMasks(views)): RollupPlan {
  return { ...countViews(views), ...planReach(stored, masks) };
}

export interface ReachPlan {
  windowReach: WindowReach[];
  firstVisits: FirstVisits[];
  returns: Returns[];
}

/**
 * The reach counters (reach.ts) implied by widening the stored masks (`stored`, as they were
 * before the chunk; a key without one starts empty) with the chunk's `masks`, in the masks'
 * family: the counters carry the masks' format when they have one.
 */
export function planReach(stored: StoredMasks, masks: ChunkMasks): ReachPlan {
  const storedByKey = byMaskKey(stored);
  const scopes = new ReachScopes();
  // One callback for the whole plan (reachDeltas calls it per counter change), adding to the current mask's scope and page.
  const at = { counters: undefined as unknown as ScopeCounters, pathId: 0 };
  const add = (windowDay: number, previousWindowDay: number, delta: number, series: Series) => {
    const { counters, pathId } = at;
    const counter =
      previousWindowDay === NO_PREVIOUS_DAY
        ? entry(counters.firstVisits, dayKey(windowDay, previousWindowDay, pathId), () => ({ ...counters.scope, windowDay, pathId, human: 0, ai: 0, bot: 0, total: 0 }))
        : entry(counters.returns, dayKey(windowDay, previousWindowDay, pathId), () => ({ ...counters.scope, windowDay, previousWindowDay, pathId, human: 0, ai: 0, bot: 0, total: 0 }));
    counter[series] += delta;
  };
  for (const [key, added] of masks) {
    const before = storedByKey.get(key) ?? NO_MASK;
    const human = before.human | added.human;
    const ai = before.ai | added.ai;
    const bot = before.bot | added.bot;
    if (human === before.human && ai === before.ai && bot === before.bot) continue;
    const counters = scopes.of(added);
    const { pathId } = added;
    const newcomer: ReachCounts = {
      human: before.human === 0 && human !== 0 ? 1 : 0,
      ai: before.ai === 0 && ai !== 0 ? 1 : 0,
      bot: before.bot === 0 && bot !== 0 ? 1 : 0,
      total: (before.human | before.ai) === 0 && (human | ai) !== 0 ? 1 : 0,
    };
    if (newcomer.human + newcomer.ai + newcomer.bot + newcomer.total > 0) {
      addCounts(
        entry(counters.windowReach, pathId, () => ({ ...counters.scope, pathId, human: 0, ai: 0, bot: 0, total: 0 })),
        newcomer,
      );
    }
    at.counters = counters;
    at.pathId = pathId;
    reachDeltas(before, added, add);
  }
  return {
    windowReach: scopes.list((counters) => counters.windowReach),
    firstVisits: scopes.list((counters) => counters.firstVisits),
    returns: scopes.list((counters) => counters.returns),
  };
}

/** The reach counters of one (project, window, format) scope, keyed by numbers (dayKey): no key string per counter change. */
interface ScopeCounters {
  scope: { projectId: string; windowStart: number; format?: number };
  windowReach: Map<number, WindowReach>;
  firstVisits: Map<number, FirstVisits>;
  returns: Map<number, Returns>;
}

/** Page and group ids are int4 (so below 2^31) and window days below 32: one safe integer holds all three. */
const dayKey = (windowDay: number, previousWindowDay: number, pathId: number) => (windowDay * 33 + previousWindowDay + 1) * 2 ** 31 + pathId;

/** A plan's scopes; the masks of one scope mostly come together, so the last one is checked first. */
class ReachScopes {
  readonly #byKey = new Map<string, ScopeCounters>();
  #last: ScopeCounters | undefined;

  of(mask: VisitorMask): ScopeCounters {
    const last = this.#last;
    if (last && last.scope.projectId === mask.projectId && last.scope.windowStart === mask.windowStart && last.scope.format === mask.format) return last;
    const key = `${mask.projectId}\n${mask.windowStart}\n${mask.format ?? ""}`;
    let found = this.#byKey.get(key);
    if (!found) {
      const { projectId, windowStart, format } = mask;
      const scope = format === undefined ? { projectId, windowStart } : { projectId, windowStart, format };
      found = { scope, windowReach: new Map(), firstVisits: new Map(), returns: new Map() };
      this.#byKey.set(key, found);
    }
    return (this.#last = found);
  }

  /** One kind of counter of every scope, leaving out those that sum to zero. */
  list<T extends ReachCounts>(kind: (counters: ScopeCounters) => Map<number, T>): T[] {
    return [...this.#byKey.values()].flatMap((counters) => nonZero(kind(counters)));
  }
}

type ViewCounters = Pick<RollupPlan, "dailyViews" | "categoryViews" | "formatViews" | "agentViews" | "agentPages" | "failures">;

/**
 * Views per day and page by class (bots included) and by format; AI views per day and
 * sub-category; agents' views by verification, their pages, and the AI views that failed.
 */
function countViews(views: readonly ChunkView[]): ViewCounters {
  const daily = new Map<string, DailyViews>();
  const formats = new Map<string, DailyFormatViews>();
  const categories = new Map<string, DailyCategoryViews>();
  const agents = new Map<string, DailyAgentViews>();
  const agentPages = new Map<string, DailyAgentPages>();
  const failures = new Map<string, DailyFailures>();
  for (const view of views) {
    const { projectId, day, pathId, agentId, status } = view;
    const failed = isFailure(status);
    if (!failed) countRead(view);
    if (agentId === null) continue;
    const verification = VERIFICATION_NAME[view.verification ?? VERIFICATION_CODE.unverifiable] ?? "unverifiable";
    entry(agents, `${projectId}\n${day}\n${agentId}`, () => ({ projectId, day, agentId, verified: 0, spoofed: 0, unverifiable: 0 }))[verification]++;
    const onPage = () => entry(agentPages, `${projectId}\n${day}\n${agentId}\n${pathId}`, () => ({ projectId, day, agentId, pathId, views: 0, failed: 0, verified: 0, spoofed: 0 }));
    if (verification === "spoofed") onPage().spoofed++;
    if (view.trafficClass !== CLASS_CODE.ai) continue;
    const read = onPage();
    read.views++;
    if (verification === "verified") read.verified++;
    if (!failed) continue;
    read.failed++;
    entry(failures, `${projectId}\n${day}\n${pathId}\n${status}\n${agentId}`, () => ({ projectId, day, pathId, status, agentId, views: 0 })).views++;
  }
  /** A page served: views per page and class, per format, and AI views per sub-category. */
  function countRead(view: ChunkView) {
    const { projectId, day, pathId, format } = view;
    const className = CLASS_NAME[view.trafficClass];
    entry(daily, `${projectId}\n${day}\n${pathId}`, () => ({ projectId, day, pathId, human: 0, ai: 0, bot: 0 }))[className]++;
    entry(formats, `${projectId}\n${day}\n${pathId}\n${format}`, () => ({ projectId, day, pathId, format, human: 0, ai: 0, bot: 0 }))[className]++;
    const category = view.trafficClass === CLASS_CODE.ai ? view.category : null;
    if (category) entry(categories, `${projectId}\n${day}\n${category}`, () => ({ projectId, day, trafficClass: CLASS_CODE.ai, category, views: 0 })).views++;
  }
  return {
    dailyViews: [...daily.values()],
    formatViews: [...formats.values()],
    categoryViews: [...categories.values()],
    agentViews: [...agents.values()],
    agentPages: [...agentPages.values()],
    failures: [...failures.values()],
  };
}

const VERIFICATION_NAME: Record<number, "verified" | "spoofed" | "unverifiable"> = Object.fromEntries(
  Object.entries(VERIFICATION_CODE).map(([name, code]) => [code, name as "verified" | "spoofed" | "unverifiable"]),
);

export const CLASS_NAME = { [CLASS_CODE.human]: "human", [CLASS_CODE.ai]: "ai", [CLASS_CODE.bot]: "bot" } as const;

export function addCounts(counter: ReachCounts, delta: ReachCounts): void {
  counter.human += delta.human;
  counter.ai += delta.ai;
  counter.bot += delta.bot;
  counter.total += delta.total;
}

export const nonZero = <T extends ReachCounts>(counters: Map<unknown, T>): T[] =>
  [...counters.values()].filter((counter) => counter.human !== 0 || counter.ai !== 0 || counter.bot !== 0 || counter.total !== 0);

/** The map's entry for `key`, created by `create` the first time. */
export function entry<K, T>(map: Map<K, T>, key: K, create: () => T): T {
  let found = map.get(key);
  if (!found) map.set(key, (found = create()));
  return found;
}

/** Views per format summed over the pages: the site's, per day. */
export function siteFormatViews(formatViews: readonly DailyFormatViews[]): Omit<DailyFormatViews, "pathId">[] {
  const site = new Map<string, Omit<DailyFormatViews, "pathId">>();
  for (const { projectId, day, format, human, ai, bot } of formatViews) {
    const sum = entry(site, `${projectId}\n${day}\n${format}`, () => ({ projectId, day, format, human: 0, ai: 0, bot: 0 }));
    sum.human += human;
    sum.ai += ai;
    sum.bot += bot;
  }
  return [...site.values()];
}

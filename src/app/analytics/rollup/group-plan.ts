import { CLASS_NAME, entry, isFailure, maskKey, SITE_PATH_ID } from "./plan.js";
import type { ChunkMasks, ChunkView, VisitorMask } from "./plan-types.js";

/**
 * What a chunk adds to the groups of views counted like pages: a page's sections
 * (page-sections.ts) and a person's referral groups (referral-groups.ts). One mask per (project,
 * window, group, visitor), stored with the pages' masks and counted by the same reach counters
 * (planReach) under the group's path id; each source's views per day and page
 * (chunkReferralViews); and views per day of the site and each section, in all and per source
 * (chunkScopeViews).
 */
export function chunkGroupMasks(views: readonly ChunkView[], sectionsOf: ReadonlyMap<number, number[]>): ChunkMasks {
  const masks = new Map<string, VisitorMask>();
  for (const view of views) {
    if (isFailure(view.status)) continue;
    const { projectId, windowStart, visitor } = view;
    for (const pathId of [...(sectionsOf.get(view.pathId) ?? []), ...view.groupIds]) {
      const mask = entry(masks, maskKey({ projectId, windowStart, pathId, visitor }), () => ({ projectId, windowStart, pathId, visitor, human: 0, ai: 0, bot: 0, formats: 0 }));
      mask[CLASS_NAME[view.trafficClass]] |= 1 << (view.day - windowStart);
    }
  }
  return masks;
}

/** A source's views of a page on a day (people's arrivals). */
export interface DailyReferrals {
  projectId: string;
  day: number;
  sourceId: number;
  pathId: number;
  views: number;
}

export function chunkReferralViews(views: readonly ChunkView[]): DailyReferrals[] {
  const daily = new Map<string, DailyReferrals>();
  for (const view of views) {
    if (view.sourceId === null || isFailure(view.status)) continue;
    const { projectId, day, sourceId, pathId } = view;
    entry(daily, `${projectId}\n${day}\n${sourceId}\n${pathId}`, () => ({ projectId, day, sourceId, pathId, views: 0 })).views++;
  }
  return [...daily.values()];
}

/** No source: a scope's row of all its views, beside its rows per source (people's arrivals). */
export const ALL_SOURCES = 0;

/**
 * Views of a scope on a day: of the site (path 0) or a section, all of them (source 0) or a
 * source's arrivals (counted as people's, in `human`), so a time series of a prefix or a channel
 * reads a row per day and source instead of every page's.
 */
export interface DailyScopeViews {
  projectId: string;
  day: number;
  scopeId: number;
  sourceId: number;
  human: number;
  ai: number;
  bot: number;
}

export function chunkScopeViews(views: readonly ChunkView[], sectionsOf: ReadonlyMap<number, number[]>): DailyScopeViews[] {
  const daily = new Map<string, DailyScopeViews>();
  const row = (projectId: string, day: number, scopeId: number, sourceId: number) =>
    entry(daily, `${projectId}\n${day}\n${scopeId}\n${sourceId}`, () => ({ projectId, day, scopeId, sourceId, human: 0, ai: 0, bot: 0 }));
  for (const view of views) {
    if (isFailure(view.status)) continue;
    const { projectId, day, sourceId } = view;
    for (const scopeId of [SITE_PATH_ID, ...(sectionsOf.get(view.pathId) ?? [])]) {
      row(projectId, day, scopeId, ALL_SOURCES)[CLASS_NAME[view.trafficClass]]++;
      if (sourceId !== null) row(projectId, day, scopeId, sourceId).human++;
    }
  }
  return [...daily.values()];
}

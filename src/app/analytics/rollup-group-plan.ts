import { CLASS_NAME, entry, isFailure, maskKey, type ChunkMasks, type ChunkView, type VisitorMask } from "./rollup-plan.js";

/**
 * What a chunk adds to the groups of views counted like pages: a page's sections
 * (page-sections.ts) and a person's referral groups (referral-groups.ts). One mask per (project,
 * window, group, visitor), stored with the pages' masks and counted by the same reach counters
 * (planReach) under the group's path id; and each source's views per day and page.
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

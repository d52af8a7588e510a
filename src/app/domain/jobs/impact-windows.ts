import { DAY_MS, epochDay } from "../../../shared/epoch-days.js";

/** The lengths, in days, of the windows a merged change is measured over (docs/analytics/impact.md). */
export const IMPACT_WINDOW_DAYS = [7, 14, 28] as const;
export type ImpactWindowDays = (typeof IMPACT_WINDOW_DAYS)[number];

/** One window around a merge: the N days before the merge day, and the N days after it. */
export interface ImpactWindow {
  days: ImpactWindowDays;
  before: { from: number; to: number };
  /** The whole window after the merge, and the part of it that has ended (`counted`, empty before its first day is over). */
  after: { from: number; to: number; counted: { from: number; to: number }; complete: boolean };
}

/**
 * The windows of a merge on `mergeDay` as of `today` (epoch days). The merge day itself belongs
 * to neither side: part of it was read before the change and part after. Only whole days that
 * have ended count, so an unfinished window says how many of its days it holds.
 */
export function impactWindows(mergeDay: number, today: number): ImpactWindow[] {
  return IMPACT_WINDOW_DAYS.map((days) => {
    const from = mergeDay + 1;
    const to = from + days;
    const end = Math.max(from, Math.min(to, today));
    return { days, before: { from: mergeDay - days, to: mergeDay }, after: { from, to, counted: { from, to: end }, complete: end === to } };
  });
}

/** When the first (7-day) window after a merge at `mergedAt` is over: the start of the day after its last. */
export function firstWindowEnd(mergedAt: Date): Date {
  return new Date((epochDay(mergedAt.getTime()) + 1 + IMPACT_WINDOW_DAYS[0]) * DAY_MS);
}

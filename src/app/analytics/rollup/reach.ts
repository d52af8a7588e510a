/**
 * Exact distinct counts over any day range, from per-visitor day masks.
 *
 * Within a salt window every (visitor, page) has a set of days with a view, kept as a bit mask
 * (bit d = day d of the window; a month has at most 31). For each day d in the set, record the
 * pair (d, prev) where prev is the previous day in the set, or -1. A visitor has a view in the
 * range [a, b) exactly when one of its days d satisfies a <= d < b and prev < a: that d is its
 * first day inside the range, and there is only one. So the number of distinct visitors in any
 * range is a sum of counters keyed (day, prev), without ever looking at a visitor again.
 * Counters with prev = -1 (first visits) answer every range that starts at the window's start;
 * the others (returns) are read only for ranges starting later.
 */
export const NO_PREVIOUS_DAY = -1;

/** The (day, prev) pairs a day mask contributes, in day order. */
export function visitPairs(mask: number): [day: number, prev: number][] {
  const pairs: [number, number][] = [];
  let prev = NO_PREVIOUS_DAY;
  for (let rest = mask >>> 0, day = 0; rest !== 0; rest >>>= 1, day++) {
    if ((rest & 1) === 0) continue;
    pairs.push([day, prev]);
    prev = day;
  }
  return pairs;
}

/** Which counter series a pair is added to: total is the union of human and AI (bots are apart). */
export const SERIES = ["human", "ai", "bot", "total"] as const;
export type Series = (typeof SERIES)[number];

/** A visitor's day masks by class. */
export interface ClassMasks {
  human: number;
  ai: number;
  bot: number;
}

/**
 * Calls `add(day, prev, delta, series)` for every counter change that widening the masks
 * `before` by `added` makes (total = union of human and AI days; bots only in their own series).
 * Pairs present in both cancel.
 */
export function reachDeltas(before: ClassMasks, added: ClassMasks, add: (day: number, prev: number, delta: number, series: Series) => void): void {
  pairDeltas(before.human, before.human | added.human, add, "human");
  pairDeltas(before.ai, before.ai | added.ai, add, "ai");
  pairDeltas(before.bot, before.bot | added.bot, add, "bot");
  pairDeltas(before.human | before.ai, before.human | before.ai | added.human | added.ai, add, "total");
}

/**
 * Calls `emit(day, prev, delta)` for every (day, prev) counter change that turns one mask `before`
 * into `after`, in day order: a day in both with the same previous day cancels. Walks the bits of
 * both masks at once, so it allocates nothing (the rollup calls it for every mask a chunk widens);
 * `tag` is passed on to `emit`, so one callback serves several series.
 */
export function pairDeltas<Tag>(before: number, after: number, emit: (day: number, prev: number, delta: number, tag: Tag) => void, tag?: Tag): void {
  if (before === after) return;
  let prevBefore = NO_PREVIOUS_DAY;
  let prevAfter = NO_PREVIOUS_DAY;
  for (let rest = (before | after) >>> 0, day = 0; rest !== 0; rest >>>= 1, day++) {
    if ((rest & 1) === 0) continue;
    const inBefore = (before >>> day) & 1;
    const inAfter = (after >>> day) & 1;
    if (!(inBefore && inAfter && prevBefore === prevAfter)) {
      if (inBefore) emit(day, prevBefore, -1, tag as Tag);
      if (inAfter) emit(day, prevAfter, 1, tag as Tag);
    }
    if (inBefore) prevBefore = day;
    if (inAfter) prevAfter = day;
  }
}

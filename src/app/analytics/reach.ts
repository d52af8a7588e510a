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

export interface MaskChange {
  human: [before: number, after: number];
  ai: [before: number, after: number];
  bot: [before: number, after: number];
}

/**
 * Calls `add(series, day, prev, delta)` for every counter change that turns the masks `before`
 * into `after` (total = union of human and AI days; bots only in their own series). Pairs present in both cancel.
 */
export function reachDeltas(change: MaskChange, add: (series: Series, day: number, prev: number, delta: number) => void): void {
  const masks: Record<Series, [number, number]> = {
    human: change.human,
    ai: change.ai,
    bot: change.bot,
    total: [change.human[0] | change.ai[0], change.human[1] | change.ai[1]],
  };
  for (const series of SERIES) {
    const [before, after] = masks[series];
    pairDeltas(before, after, (day, prev, delta) => add(series, day, prev, delta));
  }
}

/** Calls `emit(day, prev, delta)` for every (day, prev) counter change that turns one mask `before` into `after`. */
export function pairDeltas(before: number, after: number, emit: (day: number, prev: number, delta: number) => void): void {
  if (before !== after) diffPairs(visitPairs(before), visitPairs(after), emit);
}

/** Both lists are in day order with one pair per day: a merge finds what was removed and added. */
function diffPairs(removed: [number, number][], added: [number, number][], emit: (day: number, prev: number, delta: number) => void): void {
  let i = 0;
  let j = 0;
  while (i < removed.length || j < added.length) {
    const old = removed[i];
    const now = added[j];
    if (now === undefined || (old !== undefined && old[0] < now[0])) {
      emit(old![0], old![1], -1);
      i++;
    } else if (old === undefined || now[0] < old[0]) {
      emit(now[0], now[1], 1);
      j++;
    } else {
      if (old[1] !== now[1]) {
        emit(old[0], old[1], -1);
        emit(now[0], now[1], 1);
      }
      i++;
      j++;
    }
  }
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NO_PREVIOUS_DAY, pairDeltas, reachDeltas, visitPairs, type Series } from "../../../../../src/app/analytics/rollup/reach.js";
import { random } from "../../../../helpers/traffic.js";

/** Distinct visitors with a day in [a, b), counted the slow way from the masks themselves. */
const direct = (masks: number[], a: number, b: number) => masks.filter((m) => visitPairs(m).some(([d]) => d >= a && d < b)).length;

/** The same, from (day, prev) counters only: first days inside the range. */
const fromCounters = (counters: Map<string, number>, a: number, b: number) => {
  let sum = 0;
  for (const [key, n] of counters) {
    const [d, prev] = key.split(":").map(Number) as [number, number];
    if (d >= a && d < b && prev < a) sum += n;
  }
  return sum;
};

describe("reach counters: distinct visitors of any day range from (day, previous day) pairs", () => {
  it("lists each day of a mask with the day before it", () => {
    expect(visitPairs(0)).toEqual([]);
    expect(visitPairs(0b1)).toEqual([[0, NO_PREVIOUS_DAY]]);
    expect(visitPairs(0b1010_0100)).toEqual([
      [2, NO_PREVIOUS_DAY],
      [5, 2],
      [7, 5],
    ]);
    expect(visitPairs(1 << 30)).toEqual([[30, NO_PREVIOUS_DAY]]);
  });

  it("counts every range of a 31-day month exactly while days arrive in any order", () => {
    const rand = random(3);
    const visitors = Array.from({ length: 300 }, () => 0);
    const counters = new Map<string, number>();
    for (let step = 0; step < 2_000; step++) {
      const v = Math.floor(rand() * visitors.length);
      const before = visitors[v] as number;
      const after = before | (1 << Math.floor(rand() * 31));
      visitors[v] = after;
      reachDeltas({ human: before, ai: 0, bot: 0 }, { human: after, ai: 0, bot: 0 }, (day, prev, delta, series: Series) => {
        if (series !== "human") return;
        const key = `${day}:${prev}`;
        counters.set(key, (counters.get(key) ?? 0) + delta);
      });
    }
    for (let a = 0; a < 31; a++) {
      for (let b = a + 1; b <= 31; b++) expect(fromCounters(counters, a, b), `[${a}, ${b})`).toBe(direct(visitors, a, b));
    }
  });

  it("feeds total from the union of human and AI days, and nothing when a mask does not change", () => {
    const seen: string[] = [];
    reachDeltas({ human: 0b001, ai: 0b100, bot: 0b1000 }, { human: 0b011, ai: 0b100, bot: 0b1000 }, (day, prev, delta, series) => seen.push(`${series} ${day}/${prev} ${delta}`));
    expect(seen.sort()).toEqual(["human 1/0 1", "total 1/0 1", "total 2/0 -1", "total 2/1 1"].sort());
  });

  it("keeps bot days in their own series, out of total", () => {
    const seen: string[] = [];
    reachDeltas({ human: 0, ai: 0b1, bot: 0b10 }, { human: 0, ai: 0b1, bot: 0b110 }, (day, prev, delta, series) => seen.push(`${series} ${day}/${prev} ${delta}`));
    expect(seen).toEqual(["bot 2/1 1"]);
  });

  it("changes the (day, prev) pairs of any mask into those of any wider mask, and only those", () => {
    const mask = fc.integer({ min: 0, max: 2 ** 31 - 1 });
    fc.assert(
      fc.property(mask, mask, (before, added) => {
        const after = before | added;
        const counts = new Map<string, number>();
        const bump = (key: string, delta: number) => counts.set(key, (counts.get(key) ?? 0) + delta);
        pairDeltas(before, after, (day, prev, delta) => bump(`${day}:${prev}`, delta));
        for (const [day, prev] of visitPairs(before)) bump(`${day}:${prev}`, 1);
        const expected = new Map(visitPairs(after).map(([day, prev]) => [`${day}:${prev}`, 1]));
        expect(new Map([...counts].filter(([, n]) => n !== 0))).toEqual(expected);
        // Nothing is emitted for a pair both masks have.
        let emitted = 0;
        pairDeltas(before, after, () => emitted++);
        const kept = visitPairs(before).filter(([d, p]) => visitPairs(after).some(([d2, p2]) => d2 === d && p2 === p)).length;
        expect(emitted).toBe(visitPairs(before).length - kept + visitPairs(after).length - kept);
      }),
    );
  });
});

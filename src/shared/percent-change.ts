/** The change from `before` to `after` in whole percent; null when there was nothing before (no percentage of zero). */
export function percentChange(before: number, after: number): number | null {
  return before === 0 ? null : Math.round(((after - before) / before) * 100);
}

/** The change as text ("+12%", "-3%", "0%"), "new" from nothing, null with nothing on either side. */
export function percentChangeText(before: number, after: number): string | null {
  const percent = percentChange(before, after);
  if (percent === null) return after === 0 ? null : "new";
  return `${percent > 0 ? "+" : ""}${percent}%`;
}

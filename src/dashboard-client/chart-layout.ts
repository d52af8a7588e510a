/**
 * How the daily chart lays itself out at a width. A phone's 350 pixels hold four or five readable
 * day labels, not ten ISO dates: below COMPACT_BELOW_PX the labels are short ("Nov 16"; the tooltip
 * keeps the full date), there are fewer ticks and no vertical grid lines, and the bars fill their slots.
 */
export const COMPACT_BELOW_PX = 480;

export interface ChartLayout {
  compact: boolean;
  xTicks: number;
  yTicks: number;
  xGrid: boolean;
  /** Share of a day's slot its bars take (Chart.js's categoryPercentage; the default is 0.8). */
  categoryPercentage: number;
  dayLabel: (date: string) => string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11-16" → "Nov 16"; anything else as it is. */
export function shortDay(date: string): string {
  const match = /^\d{4}-(\d{2})-(\d{2})$/.exec(date);
  const month = match ? MONTHS[Number(match[1]) - 1] : undefined;
  return match && month ? `${month} ${Number(match[2])}` : date;
}

export function chartLayout(width: number): ChartLayout {
  const compact = width < COMPACT_BELOW_PX;
  return compact
    ? { compact, xTicks: Math.max(3, Math.floor(width / 80)), yTicks: 5, xGrid: false, categoryPercentage: 1, dayLabel: shortDay }
    : { compact, xTicks: 10, yTicks: 8, xGrid: true, categoryPercentage: 0.8, dayLabel: (date) => date };
}

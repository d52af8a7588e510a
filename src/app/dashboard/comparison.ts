import { percentChange } from "../../shared/percent-change.js";
import { html, type SafeHtml } from "./html.js";

/** `part` as a share of `whole` ("4%", "12.5%" with one decimal), "<1%" for a little, "—" of nothing. */
export function percentOf(part: number, whole: number, decimals = 0): string {
  if (whole <= 0) return "—";
  const scale = 10 ** decimals;
  const share = Math.round((part / whole) * 100 * scale) / scale;
  return share === 0 && part > 0 ? `<${1 / scale}%` : `${share}%`;
}

/**
 * The change from the previous period's number: an arrow and a percentage for the eye ("↑ 12%",
 * "↓ 3%"), words for a screen reader ("up 12%"), so neither colour nor the arrow alone says it.
 * `lowerIsBetter` (failures) colours a rise as bad and a fall as good.
 */
export function changeFrom(now: number, before: number, lowerIsBetter = false): SafeHtml {
  const tone = (up: boolean) => (up !== lowerIsBetter ? "change-up" : "change-down");
  const percent = percentChange(before, now);
  if (percent === null) {
    return now === 0
      ? html`<span class="change-same">no change</span>`
      : html`<span class="${tone(true)}"><span aria-hidden="true">↑ </span>new</span>`;
  }
  if (percent === 0) return html`<span class="change-same"><span aria-hidden="true">± </span>0%<span class="visually-hidden"> change</span></span>`;
  const up = percent > 0;
  return html`<span class="${tone(up)}"><span aria-hidden="true">${up ? "↑" : "↓"} </span><span class="visually-hidden">${up ? "up" : "down"} </span>${Math.abs(percent)}%</span>`;
}

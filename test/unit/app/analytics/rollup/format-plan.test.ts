import { describe, expect, it } from "vitest";
import { NO_PREVIOUS_DAY } from "../../../../../src/app/analytics/rollup/reach.js";
import { chunkFormatMasks, planFormats } from "../../../../../src/app/analytics/rollup/format-plan.js";
import { chunkMasks, planRollup, SITE_PATH_ID } from "../../../../../src/app/analytics/rollup/plan.js";
import type { ChunkView, VisitorMask } from "../../../../../src/app/analytics/rollup/plan-types.js";
import { CLASS_CODE, type ClassCode } from "../../../../../src/app/analytics/classify/traffic-class.js";
import { random } from "../../../../helpers/traffic.js";
import { chunkView } from "../../../../helpers/chunk-view.js";

const PROJECT = "project-1";
const WINDOW_START = 20_362;
const HTML = 0;
const MARKDOWN = 1;
const LLMS = 2;

const view = (windowDay: number, options: Partial<ChunkView> = {}): ChunkView => chunkView(WINDOW_START, windowDay, { projectId: PROJECT, format: HTML, ...options });

/**
 * The rollup over chunks, with the stores as maps: the site masks, the format masks, and the
 * counters of every series (per format: html beside the site's, the others apart).
 */
function rollUp(chunks: ChunkView[][]) {
  const site = new Map<string, VisitorMask>();
  const formats = new Map<string, VisitorMask>();
  const counters = new Map<string, number>();
  const key = (m: VisitorMask) => `${m.projectId}|${m.windowStart}|${m.pathId}|${m.visitor}`;
  const or = (store: Map<string, VisitorMask>, k: string, m: VisitorMask) => {
    const before = store.get(k);
    store.set(k, before ? { ...m, human: before.human | m.human, ai: before.ai | m.ai, bot: before.bot | m.bot } : m);
  };
  const add = (k: string, n: number) => counters.set(k, (counters.get(k) ?? 0) + n);
  let writes = 0;
  for (const chunk of chunks) {
    const masks = chunkMasks(chunk);
    const storedSite = [...masks.values()].flatMap((m) => site.get(key(m)) ?? []);
    // What storedFormatMasks reads: the format masks of the pairs that read other formats before.
    const mixed = new Set(storedSite.filter((m) => (m.formats ?? 0) !== 0).map(key));
    const storedFormats = [...formats.values()].filter((f) => mixed.has(key(f)));
    const plan = planFormats(storedSite, masks, storedFormats, chunkFormatMasks(chunk));
    const rollup = planRollup(chunk, storedSite, masks);
    for (const m of masks.values()) {
      or(site, key(m), m);
      const merged = site.get(key(m)) as VisitorMask;
      merged.formats = (storedSite.find((s) => key(s) === key(m))?.formats ?? 0) | (m.formats ?? 0);
    }
    for (const m of plan.writes) or(formats, `${key(m)}|${m.format}`, m);
    writes += plan.writes.length;
    for (const s of ["human", "ai", "bot"] as const) {
      // html: the site's counters plus html's corrections; the other formats: their own.
      for (const c of rollup.firstVisits) add(`${HTML}|${c.pathId}|${s}|${c.windowDay}|${NO_PREVIOUS_DAY}`, c[s]);
      for (const c of rollup.returns) add(`${HTML}|${c.pathId}|${s}|${c.windowDay}|${c.previousWindowDay}`, c[s]);
      for (const c of plan.counters.firstVisits) add(`${c.format}|${c.pathId}|${s}|${c.windowDay}|${NO_PREVIOUS_DAY}`, c[s]);
      for (const c of plan.counters.returns) add(`${c.format}|${c.pathId}|${s}|${c.windowDay}|${c.previousWindowDay}`, c[s]);
    }
  }
  /** Distinct visitors of [a, b) in a format from the counters: first days inside the range. */
  const visitors = (format: number, pathId: number, series: string, a: number, b: number) => {
    let sum = 0;
    for (let day = a; day < b; day++) for (let prev = NO_PREVIOUS_DAY; prev < a; prev++) sum += counters.get(`${format}|${pathId}|${series}|${day}|${prev}`) ?? 0;
    return sum;
  };
  return { visitors, writes };
}

describe("visitors per format", () => {
  it("keeps no format masks for a visitor who only reads html", () => {
    const { visitors, writes } = rollUp([[view(3)], [view(5), view(8)]]);
    expect(writes).toBe(0);
    expect(visitors(HTML, 7, "human", 0, 31)).toBe(1);
    expect(visitors(HTML, 7, "human", 4, 31)).toBe(1);
    expect(visitors(MARKDOWN, 7, "human", 0, 31)).toBe(0);
  });

  it("starts a visitor's html row from its days so far when it first reads another format", () => {
    const { visitors } = rollUp([[view(3)], [view(5, { format: MARKDOWN })], [view(8)]]);
    expect(visitors(HTML, 7, "human", 4, 8)).toBe(0);
    expect(visitors(HTML, 7, "human", 4, 9)).toBe(1);
    expect(visitors(HTML, 7, "human", 0, 4)).toBe(1);
    expect(visitors(MARKDOWN, 7, "human", 4, 6)).toBe(1);
    expect(visitors(MARKDOWN, 7, "human", 6, 31)).toBe(0);
  });

  it("sums to exact distinct counts per format, class, page and day range, whatever the chunks", () => {
    const rand = random(11);
    const DAYS = 20;
    const classes = [CLASS_CODE.human, CLASS_CODE.ai, CLASS_CODE.bot];
    const views: ChunkView[] = Array.from({ length: 2_500 }, () => {
      const f = rand();
      return view(Math.floor(rand() * DAYS), {
        pathId: 1 + Math.floor(rand() * 4),
        visitor: String(Math.floor(rand() * 60)),
        trafficClass: classes[Math.floor(rand() * 3)] as ClassCode,
        format: f < 0.7 ? HTML : f < 0.9 ? MARKDOWN : LLMS,
        status: rand() < 0.05 ? 404 : 200,
      });
    });
    const chunks: ChunkView[][] = [];
    for (let at = 0; at < views.length; ) chunks.push(views.slice(at, (at += 1 + Math.floor(rand() * 300))));
    const { visitors } = rollUp(chunks);
    const direct = (format: number, pathId: number, series: "human" | "ai" | "bot", a: number, b: number) =>
      new Set(
        views
          .filter((v) => v.status < 400 && v.format === format && (pathId === SITE_PATH_ID || v.pathId === pathId) && v.trafficClass === CLASS_CODE[series])
          .filter((v) => v.day - v.windowStart >= a && v.day - v.windowStart < b)
          .map((v) => v.visitor),
      ).size;
    let checked = 0;
    for (const format of [HTML, MARKDOWN, LLMS]) {
      for (const pathId of [SITE_PATH_ID, 1, 2, 3, 4]) {
        for (const series of ["human", "ai", "bot"] as const) {
          for (let a = 0; a < DAYS; a += 3) {
            for (let b = a + 1; b <= DAYS; b += 4) {
              expect(visitors(format, pathId, series, a, b), `${format} ${pathId} ${series} [${a}, ${b})`).toBe(direct(format, pathId, series, a, b));
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(900);
  });
});

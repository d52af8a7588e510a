import { describe, expect, it } from "vitest";
import { NO_PREVIOUS_DAY } from "../../../../../src/app/analytics/rollup/reach.js";
import { chunkAgentMasks, chunkAgentPageMonths, planAgentReach, type AgentMask } from "../../../../../src/app/analytics/rollup/agent-plan.js";
import { chunkMasks, planRollup, SITE_PATH_ID } from "../../../../../src/app/analytics/rollup/plan.js";
import type { ChunkView, RollupPlan, VisitorMask } from "../../../../../src/app/analytics/rollup/plan-types.js";
import { CLASS_CODE, type ClassCode } from "../../../../../src/app/analytics/classify/traffic-class.js";
import { random } from "../../../../helpers/traffic.js";
import { chunkView } from "../../../../helpers/chunk-view.js";

const PROJECT = "project-1";
const WINDOW_START = 20_362; // 2025-10-01, a 31-day month
const PAGE = 7;

const view = (windowDay: number, options: Partial<ChunkView> = {}): ChunkView => chunkView(WINDOW_START, windowDay, { projectId: PROJECT, pathId: PAGE, ...options });
const ai = (windowDay: number, options: Partial<ChunkView> = {}) => view(windowDay, { trafficClass: CLASS_CODE.ai, category: "assistant", ...options });
const stored = (pathId: number, human: number, ai = 0, visitor = "42", bot = 0): VisitorMask => ({ projectId: PROJECT, windowStart: WINDOW_START, pathId, visitor, human, ai, bot, formats: 0 });
/** The same masks on the page and on the site row, as the rollup always stores them. */
const storedOnPageAndSite = (human: number, ai = 0) => [stored(PAGE, human, ai), stored(SITE_PATH_ID, human, ai)];

/** A plan's reach counters in a compact, order-free form: `path series windowDay/previousWindowDay delta`. */
function reachLines(plan: RollupPlan): string[] {
  const lines: string[] = [];
  const series = ["human", "ai", "bot", "total"] as const;
  for (const c of plan.windowReach) for (const s of series) if (c[s] !== 0) lines.push(`window ${c.pathId} ${s} ${c[s]}`);
  for (const c of plan.firstVisits) for (const s of series) if (c[s] !== 0) lines.push(`first ${c.pathId} ${s} ${c.windowDay} ${c[s]}`);
  for (const c of plan.returns) for (const s of series) if (c[s] !== 0) lines.push(`return ${c.pathId} ${s} ${c.windowDay}/${c.previousWindowDay} ${c[s]}`);
  return lines.sort();
}

describe("rollup plan: the writes and counter deltas one chunk of views implies", () => {
  it("counts a visitor's first view in a window on its page and on the site row", () => {
    const plan = planRollup([view(3)], []);
    expect([...chunkMasks([view(3)]).values()]).toEqual([stored(PAGE, 1 << 3), stored(SITE_PATH_ID, 1 << 3)]);
    expect(reachLines(plan)).toEqual(
      [
        `window ${PAGE} human 1`,
        `window ${PAGE} total 1`,
        `window ${SITE_PATH_ID} human 1`,
        `window ${SITE_PATH_ID} total 1`,
        `first ${PAGE} human 3 1`,
        `first ${PAGE} total 3 1`,
        `first ${SITE_PATH_ID} human 3 1`,
        `first ${SITE_PATH_ID} total 3 1`,
      ].sort(),
    );
    expect(plan.dailyViews).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, pathId: PAGE, human: 1, ai: 0, bot: 0 }]);
    expect(plan.categoryViews).toEqual([]);
  });

  it("counts a view on a later day as a return, not as a new visitor of the window", () => {
    const plan = planRollup([view(10)], storedOnPageAndSite(1 << 3));
    expect(plan.windowReach).toEqual([]);
    expect(plan.firstVisits).toEqual([]);
    expect(reachLines(plan)).toEqual(
      [`return ${PAGE} human 10/3 1`, `return ${PAGE} total 10/3 1`, `return ${SITE_PATH_ID} human 10/3 1`, `return ${SITE_PATH_ID} total 10/3 1`].sort(),
    );
  });

  it("moves the first visit back when a backfilled view is earlier than the stored days", () => {
    const plan = planRollup([view(3, { pathId: PAGE })], [stored(PAGE, 1 << 10)]);
    // The page's stored first day 10 becomes a return after day 3; the site row had nothing stored.
    expect(reachLines(plan)).toEqual(
      [
        `first ${PAGE} human 10 -1`,
        `first ${PAGE} total 10 -1`,
        `first ${PAGE} human 3 1`,
        `first ${PAGE} total 3 1`,
        `return ${PAGE} human 10/3 1`,
        `return ${PAGE} total 10/3 1`,
        `window ${SITE_PATH_ID} human 1`,
        `window ${SITE_PATH_ID} total 1`,
        `first ${SITE_PATH_ID} human 3 1`,
        `first ${SITE_PATH_ID} total 3 1`,
      ].sort(),
    );
  });

  it("re-links a return when a backfilled day falls between two stored days", () => {
    const plan = planRollup([view(5)], storedOnPageAndSite((1 << 3) | (1 << 10)));
    expect(reachLines(plan).filter((line) => line.startsWith(`return ${PAGE} human`))).toEqual([`return ${PAGE} human 10/3 -1`, `return ${PAGE} human 10/5 1`, `return ${PAGE} human 5/3 1`]);
    expect(plan.firstVisits).toEqual([]);
  });

  it("writes and counts nothing for a day already stored, but still counts the view", () => {
    const plan = planRollup([view(3)], storedOnPageAndSite(1 << 3));
    expect(reachLines(plan)).toEqual([]);
    expect(plan.dailyViews.map((d) => d.human)).toEqual([1]);
  });

  it("keeps human and AI days apart, and total counts the union", () => {
    const plan = planRollup([ai(3)], storedOnPageAndSite(1 << 3));
    // A new AI visitor of the window, the same visitor for total.
    expect(reachLines(plan)).toEqual([`window ${PAGE} ai 1`, `window ${SITE_PATH_ID} ai 1`, `first ${PAGE} ai 3 1`, `first ${SITE_PATH_ID} ai 3 1`].sort());
    expect(plan.dailyViews).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, pathId: PAGE, human: 0, ai: 1, bot: 0 }]);
    expect(plan.categoryViews).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, trafficClass: CLASS_CODE.ai, category: "assistant", views: 1 }]);
  });

  it("counts bots in their own series: bot visitors, never in total, no category", () => {
    const plan = planRollup([view(3, { trafficClass: CLASS_CODE.bot, category: "crawler" })], []);
    expect([...chunkMasks([view(3, { trafficClass: CLASS_CODE.bot })]).values()]).toEqual([stored(PAGE, 0, 0, "42", 1 << 3), stored(SITE_PATH_ID, 0, 0, "42", 1 << 3)]);
    expect(reachLines(plan)).toEqual([`window ${PAGE} bot 1`, `window ${SITE_PATH_ID} bot 1`, `first ${PAGE} bot 3 1`, `first ${SITE_PATH_ID} bot 3 1`].sort());
    expect(plan.dailyViews).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, pathId: PAGE, human: 0, ai: 0, bot: 1 }]);
    expect(plan.categoryViews).toEqual([]);
  });

  it("counts a visitor once per page and once on the site row, across several pages and visitors", () => {
    const views = [view(1, { pathId: 1 }), view(2, { pathId: 2 }), view(1, { pathId: 1, visitor: "43" }), ai(4, { pathId: 2, visitor: "44" })];
    const plan = planRollup(views, []);
    const window = Object.fromEntries(plan.windowReach.map((c) => [c.pathId, [c.human, c.ai, c.total]]));
    expect(window).toEqual({ 1: [2, 0, 2], 2: [1, 1, 2], [SITE_PATH_ID]: [2, 1, 3] });
    // Visitor 42's site days are 1 and 2: day 2 is a return on the site, a first visit on page 2.
    expect(reachLines(plan)).toContain(`return ${SITE_PATH_ID} human 2/1 1`);
    expect(reachLines(plan)).toContain(`first 2 human 2 1`);
    expect(chunkMasks(views).size).toBe(7);
  });

  it("folds duplicates within a chunk into one mask change, while every view still counts", () => {
    const plan = planRollup([view(3), view(3), view(3)], []);
    expect(chunkMasks([view(3), view(3), view(3)]).size).toBe(2);
    expect(plan.windowReach.map((c) => c.human)).toEqual([1, 1]);
    expect(plan.dailyViews.map((d) => d.human)).toEqual([3]);
  });

  it("leaves out counters whose deltas cancel within the chunk", () => {
    // Visitor 42's first day moves from 10 to 3 (-1 on day 10) while visitor 43 arrives on day 10 (+1).
    const plan = planRollup([view(3), view(10, { visitor: "43" })], [stored(PAGE, 1 << 10)]);
    expect(plan.firstVisits.filter((c) => c.pathId === PAGE).map((c) => c.windowDay)).toEqual([3]);
    for (const counter of [...plan.windowReach, ...plan.firstVisits, ...plan.returns]) expect([counter.human, counter.ai, counter.total]).not.toEqual([0, 0, 0]);
  });

  it("ignores stored masks of keys the chunk does not touch", () => {
    const plan = planRollup([view(3)], [stored(PAGE, 1 << 1, 0, "99")]);
    expect(reachLines(plan)).toContain(`first ${PAGE} human 3 1`);
  });

  it("sums to exact distinct counts of every day range, whatever the chunks and the order of days", () => {
    const rand = random(11);
    const DAYS = 31;
    const classes: ClassCode[] = [CLASS_CODE.human, CLASS_CODE.ai, CLASS_CODE.bot];
    const views: ChunkView[] = Array.from({ length: 3_000 }, () => {
      const trafficClass = classes[Math.floor(rand() * 3)] as ClassCode;
      const projectId = rand() < 0.2 ? "project-2" : PROJECT;
      const windowStart = projectId === PROJECT ? WINDOW_START : WINDOW_START - 31;
      return view(0, {
        projectId,
        windowStart,
        day: windowStart + Math.floor(rand() * DAYS),
        pathId: 1 + Math.floor(rand() * 6),
        visitor: String(Math.floor(rand() * 150)),
        trafficClass,
        category: trafficClass === CLASS_CODE.ai ? (rand() < 0.5 ? "crawler" : "search") : null,
      });
    });

    const store = new Map<string, VisitorMask>();
    const keyOf = (m: { projectId: string; windowStart: number; pathId: number; visitor: string }) => `${m.projectId}|${m.windowStart}|${m.pathId}|${m.visitor}`;
    const counters = new Map<string, number>();
    const add = (key: string, n: number) => counters.set(key, (counters.get(key) ?? 0) + n);
    for (let at = 0; at < views.length; ) {
      const chunk = views.slice(at, (at += 1 + Math.floor(rand() * 400)));
      const masks = chunkMasks(chunk);
      const plan = planRollup(chunk, [...masks.values()].flatMap((m) => store.get(keyOf(m)) ?? []), masks);
      // What mergeMasks does in the store: OR each of the chunk's masks into the stored one.
      for (const mask of masks.values()) {
        const before = store.get(keyOf(mask));
        store.set(keyOf(mask), before ? { ...mask, human: before.human | mask.human, ai: before.ai | mask.ai } : mask);
      }
      for (const s of ["human", "ai", "total"] as const) {
        for (const c of plan.windowReach) add(`window|${c.projectId}|${c.pathId}|${s}`, c[s]);
        for (const c of plan.firstVisits) add(`pair|${c.projectId}|${c.pathId}|${s}|${c.windowDay}|${NO_PREVIOUS_DAY}`, c[s]);
        for (const c of plan.returns) add(`pair|${c.projectId}|${c.pathId}|${s}|${c.windowDay}|${c.previousWindowDay}`, c[s]);
      }
      for (const d of plan.dailyViews) for (const s of ["human", "ai", "bot"] as const) add(`views|${d.projectId}|${d.pathId}|${d.day}|${s}`, d[s]);
      for (const c of plan.categoryViews) add(`category|${c.projectId}|${c.day}|${c.category}`, c.views);
    }

    /** Distinct visitors of [a, b) from the counters: first days inside the range. */
    const fromCounters = (projectId: string, pathId: number, series: string, a: number, b: number) => {
      let sum = 0;
      for (let day = a; day < b; day++) for (let prev = NO_PREVIOUS_DAY; prev < a; prev++) sum += counters.get(`pair|${projectId}|${pathId}|${series}|${day}|${prev}`) ?? 0;
      return sum;
    };
    /** The same, brute force from the views. */
    const direct = (projectId: string, pathId: number, series: string, a: number, b: number) =>
      new Set(
        views
          .filter((v) => v.projectId === projectId && (pathId === SITE_PATH_ID || v.pathId === pathId) && v.trafficClass !== CLASS_CODE.bot)
          .filter((v) => series === "total" || v.trafficClass === CLASS_CODE[series as "human" | "ai"])
          .filter((v) => v.day - v.windowStart >= a && v.day - v.windowStart < b)
          .map((v) => v.visitor),
      ).size;

    let checked = 0;
    for (const projectId of [PROJECT, "project-2"]) {
      for (const pathId of [SITE_PATH_ID, 1, 2, 3, 4, 5, 6]) {
        for (const series of ["human", "ai", "total"]) {
          expect(counters.get(`window|${projectId}|${pathId}|${series}`) ?? 0, `${projectId} ${pathId} ${series} window`).toBe(direct(projectId, pathId, series, 0, DAYS));
          for (let a = 0; a < DAYS; a += 3) {
            for (let b = a + 1; b <= DAYS; b += 2) {
              expect(fromCounters(projectId, pathId, series, a, b), `${projectId} ${pathId} ${series} [${a}, ${b})`).toBe(direct(projectId, pathId, series, a, b));
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1_000);

    for (const v of views.slice(0, 200)) {
      const name = (["human", "ai", "bot"] as const)[v.trafficClass];
      const same = views.filter((w) => w.projectId === v.projectId && w.pathId === v.pathId && w.day === v.day && w.trafficClass === v.trafficClass).length;
      expect(counters.get(`views|${v.projectId}|${v.pathId}|${v.day}|${name}`)).toBe(same);
      if (v.category) {
        const inCategory = views.filter((w) => w.projectId === v.projectId && w.day === v.day && w.trafficClass === CLASS_CODE.ai && w.category === v.category).length;
        expect(counters.get(`category|${v.projectId}|${v.day}|${v.category}`)).toBe(inCategory);
      }
    }
  });
});

describe("rollup plan: what agents' views add", () => {
  const AGENT = 3;
  const agentView = (windowDay: number, options: Partial<ChunkView> = {}) => ai(windowDay, { agentId: AGENT, verification: 1, ...options });

  it("counts a verified agent's view as its view, on its page, with a visitor mask per page, per section of the page and for any page", () => {
    const views = [agentView(3)];
    const plan = planRollup(views, []);
    expect(plan.agentViews).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, agentId: AGENT, verified: 1, spoofed: 0, unverifiable: 0 }]);
    expect(plan.agentPages).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, agentId: AGENT, pathId: PAGE, views: 1, failed: 0, verified: 1, spoofed: 0 }]);
    expect(plan.failures).toEqual([]);
    const SECTION = 901;
    expect([...chunkAgentMasks(views, new Map([[PAGE, [SECTION]]])).values()].map((m) => [m.pathId, m.days])).toEqual([
      [PAGE, 1 << 3],
      [SITE_PATH_ID, 1 << 3],
      [SECTION, 1 << 3],
    ]);
  });

  it("keeps a spoofed claim out of the agent's views, pages and visitors: it is only reported as spoofed, on the site and on its page", () => {
    const views = [view(3, { trafficClass: CLASS_CODE.bot, agentId: AGENT, verification: 2 })];
    const plan = planRollup(views, []);
    expect(plan.agentViews).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, agentId: AGENT, verified: 0, spoofed: 1, unverifiable: 0 }]);
    expect(plan.agentPages).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, agentId: AGENT, pathId: PAGE, views: 0, failed: 0, verified: 0, spoofed: 1 }]);
    expect(chunkAgentMasks(views, new Map()).size).toBe(0);
    expect(plan.dailyViews).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, pathId: PAGE, human: 0, ai: 0, bot: 1 }]);
  });

  it("counts a failed fetch (4xx/5xx) only in the agent's pages and the failures, never as a view or a visit", () => {
    const views = [agentView(3, { status: 404, verification: 0 })];
    const plan = planRollup(views, []);
    expect(plan.dailyViews).toEqual([]);
    expect(plan.formatViews).toEqual([]);
    expect(plan.categoryViews).toEqual([]);
    expect(reachLines(plan)).toEqual([]);
    expect(plan.agentViews).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, agentId: AGENT, verified: 0, spoofed: 0, unverifiable: 1 }]);
    expect(plan.agentPages).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, agentId: AGENT, pathId: PAGE, views: 1, failed: 1, verified: 0, spoofed: 0 }]);
    expect(plan.failures).toEqual([{ projectId: PROJECT, day: WINDOW_START + 3, pathId: PAGE, status: 404, agentId: AGENT, views: 1 }]);
  });

  it("keeps the days of each month an agent read each page, failed fetches too, spoofed claims not", () => {
    const GPTBOT = 5;
    const months = chunkAgentPageMonths([
      ai(3, { agentId: GPTBOT }),
      ai(9, { agentId: GPTBOT, status: 404 }),
      ai(40, { agentId: GPTBOT }),
      view(4, { agentId: GPTBOT, trafficClass: CLASS_CODE.bot, verification: 2 }),
    ]);
    const october = WINDOW_START;
    const november = WINDOW_START + 31;
    expect(months).toEqual([
      { projectId: PROJECT, monthStart: october, agentId: GPTBOT, pathId: PAGE, days: (1 << 3) | (1 << 9) },
      { projectId: PROJECT, monthStart: november, agentId: GPTBOT, pathId: PAGE, days: 1 << 9 },
    ]);
  });

  it("counts views per format by class", () => {
    const plan = planRollup([view(3, { format: 1 }), agentView(3, { format: 1 }), view(3)], []);
    expect(plan.formatViews.map((f) => [f.format, f.human, f.ai, f.bot]).sort()).toEqual([
      [0, 1, 0, 0],
      [1, 1, 1, 0],
    ]);
  });

  it("turns widened agent masks into first visits and returns, as for the site", () => {
    const stored: AgentMask[] = [{ projectId: PROJECT, windowStart: WINDOW_START, agentId: AGENT, pathId: SITE_PATH_ID, visitor: "42", days: 1 << 3 }];
    const masks = chunkAgentMasks([agentView(1), agentView(5)], new Map());
    const reach = planAgentReach(stored, masks);
    const lines = [
      ...reach.firstVisits.map((c) => `first ${c.pathId} ${c.windowDay} ${c.visitors}`),
      ...reach.returns.map((c) => `return ${c.pathId} ${c.windowDay}/${c.previousWindowDay} ${c.visitors}`),
    ].sort();
    // Site (any page): days {3} become {1, 3, 5}; the page had nothing stored: {1, 5}.
    expect(lines).toEqual(
      [
        `first ${SITE_PATH_ID} 3 -1`,
        `first ${SITE_PATH_ID} 1 1`,
        `return ${SITE_PATH_ID} 3/1 1`,
        `return ${SITE_PATH_ID} 5/3 1`,
        `first ${PAGE} 1 1`,
        `return ${PAGE} 5/1 1`,
      ].sort(),
    );
  });
});

import type { Queryable } from "../../store/db.js";
import { CLASS_CODE } from "../classify/traffic-class.js";
import { RobotsRules, ROBOTS_PATH, type Judgement } from "../robots/robots-rules.js";
import { robotsBodies, robotsTimelines } from "../robots/robots-versions.js";
import { entry } from "./plan.js";
import type { ChunkView } from "./plan-types.js";
import type { DailyRobotsViews, RobotsDisallowedViews } from "./robots-rows.js";
import { DAILY_ROBOTS, MONTHLY_ROBOTS_DISALLOWED, ROBOTS_DISALLOWED, upsertRows } from "./tables.js";
import type { Monthly } from "./month-sums.js";
import { monthStartOf } from "../../../shared/epoch-days.js";

/**
 * AI agents' views judged against the robots.txt in force at each view's time (robots/robots-rules.ts),
 * when they are counted: the reports then add up verdicts instead of judging views. A view is judged
 * on the URL it fetched (path and query), and its disallowed row is kept under its page, with the
 * line of the rule that disallowed it. A view before
 * the project's first version is unknown, never a violation; a read of robots.txt is its own verdict.
 * Spoofed claims are not the agent's and are not judged.
 */
export const VERDICT_CODE = { unknown: 0, allowed: 1, disallowed: 2, robots: 3 } as const;
/** The version id of views before the first version. */
export const NO_VERSION = 0;

/** Caches what never changes once written: parsed versions, agents' names, pages' paths. */
const CACHE_LIMIT = 50_000;

export class RobotsJudge {
  readonly #rules = new Map<number, RobotsRules>();
  readonly #agentNames = new Map<number, string>();
  readonly #paths = new Map<number, string>();

  /** Judges the chunk's agent views and adds them to the counters (after the chunk's other counters: one table order for every chunk). */
  async count(tx: Queryable, views: readonly ChunkView[]): Promise<void> {
    const judged = views.filter((view) => view.trafficClass === CLASS_CODE.ai && view.agentId !== null);
    if (judged.length === 0) return;
    const timelines = await robotsTimelines(tx, [...new Set(judged.map((view) => view.projectId))]);
    await this.#load(tx, judged, timelines);
    const daily = new Map<string, DailyRobotsViews>();
    const disallowed = new Map<string, RobotsDisallowedViews>();
    const memo = new Map<string, Judgement>();
    for (const view of judged) {
      const agentId = view.agentId as number;
      const versionId = versionAt(timelines.get(view.projectId), view.at);
      const path = this.#paths.get(view.pathId) ?? "";
      let verdict: number = VERDICT_CODE.unknown;
      let line = 0;
      if (path === ROBOTS_PATH) verdict = VERDICT_CODE.robots;
      else if (versionId !== NO_VERSION) {
        // The URL as fetched (path and query, a trailing slash kept), not the page it counts for.
        const url = view.fetched ?? path;
        const judgement = entry(memo, `${versionId}\n${agentId}\n${url}`, () => (this.#rules.get(versionId) as RobotsRules).judge(url, this.#agentNames.get(agentId) ?? ""));
        verdict = VERDICT_CODE[judgement.verdict];
        line = judgement.line ?? 0;
      }
      const { projectId, day } = view;
      entry(daily, `${projectId}\n${day}\n${agentId}\n${versionId}\n${verdict}`, () => ({ projectId, day, agentId, versionId, verdict, views: 0 })).views++;
      if (verdict !== VERDICT_CODE.disallowed) continue;
      const row = entry(disallowed, `${projectId}\n${day}\n${agentId}\n${view.pathId}\n${versionId}\n${line}`, () => ({
        projectId,
        day,
        agentId,
        pathId: view.pathId,
        versionId,
        line,
        views: 0,
        firstSeen: view.at,
        lastSeen: view.at,
      }));
      row.views++;
      row.firstSeen = Math.min(row.firstSeen, view.at);
      row.lastSeen = Math.max(row.lastSeen, view.at);
    }
    await upsertRows(tx, DAILY_ROBOTS, [...daily.values()]);
    await upsertRows(tx, ROBOTS_DISALLOWED, [...disallowed.values()]);
    await upsertRows(tx, MONTHLY_ROBOTS_DISALLOWED, monthlyDisallowed(disallowed.values()));
  }

  /** Reads the versions, names and paths the chunk needs and the caches lack. */
  async #load(tx: Queryable, views: readonly ChunkView[], timelines: Map<string, { id: number }[]>): Promise<void> {
    if (this.#paths.size > CACHE_LIMIT) this.#paths.clear();
    if (this.#rules.size > CACHE_LIMIT / 100) this.#rules.clear();
    const versionIds = [...timelines.values()].flat().map((version) => version.id).filter((id) => !this.#rules.has(id));
    const agentIds = [...new Set(views.map((view) => view.agentId as number))].filter((id) => !this.#agentNames.has(id));
    const pathIds = [...new Set(views.map((view) => view.pathId))].filter((id) => !this.#paths.has(id));
    if (versionIds.length > 0) for (const [id, body] of await robotsBodies(tx, versionIds)) this.#rules.set(id, new RobotsRules(body));
    if (agentIds.length > 0) {
      const rows = await tx.query<{ id: number; name: string }>(`SELECT id, name FROM analytics_agents WHERE id = ANY ($1::int[])`, [agentIds]);
      for (const row of rows) this.#agentNames.set(Number(row.id), row.name);
    }
    if (pathIds.length > 0) {
      const rows = await tx.query<{ id: number; path: string }>(`SELECT id, path FROM analytics_paths WHERE id = ANY ($1::int[])`, [pathIds]);
      for (const row of rows) this.#paths.set(Number(row.id), row.path);
    }
  }
}

/** Disallowed rows per calendar month: views summed, first and last seen the earliest and latest (monthlySums only adds). */
function monthlyDisallowed(daily: Iterable<RobotsDisallowedViews>): Monthly<RobotsDisallowedViews>[] {
  const months = new Map<string, Monthly<RobotsDisallowedViews>>();
  for (const { day, ...row } of daily) {
    const monthStart = monthStartOf(day);
    const month = entry(months, `${row.projectId}\n${monthStart}\n${row.agentId}\n${row.pathId}\n${row.versionId}\n${row.line}`, () => ({ ...row, monthStart, views: 0 }));
    month.views += row.views;
    month.firstSeen = Math.min(month.firstSeen, row.firstSeen);
    month.lastSeen = Math.max(month.lastSeen, row.lastSeen);
  }
  return [...months.values()];
}

/** The version in force at `at` (the last to take effect at or before it), or NO_VERSION. */
export function versionAt(timeline: readonly { id: number; from: number }[] | undefined, at: number): number {
  let found = NO_VERSION;
  for (const version of timeline ?? []) {
    if (version.from > at) break;
    found = version.id;
  }
  return found;
}

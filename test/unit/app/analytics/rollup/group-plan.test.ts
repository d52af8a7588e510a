import { describe, expect, it } from "vitest";
import { ALL_SOURCES, chunkReferralViews, chunkScopeViews } from "../../../../../src/app/analytics/rollup/group-plan.js";
import { SITE_PATH_ID } from "../../../../../src/app/analytics/rollup/plan.js";
import type { ChunkView } from "../../../../../src/app/analytics/rollup/plan-types.js";
import { CLASS_CODE } from "../../../../../src/app/analytics/classify/traffic-class.js";
import { chunkView } from "../../../../helpers/chunk-view.js";

const DAY = 20_400;
const DOCS = 50; // the section /docs/
const GUIDES = 51; // the section /docs/guides/
const SOURCE = 90; // @source/chatgpt.com

const view = (options: Partial<ChunkView> = {}): ChunkView => chunkView(DAY - 3, 3, { projectId: "p", ...options });

describe("views per scope and day", () => {
  const sectionsOf = new Map([
    [7, [DOCS, GUIDES]],
    [8, [DOCS]],
  ]);

  it("counts each served view on the site and its page's sections by class, and a person's arrival again under its source", () => {
    const views = [
      view({ sourceId: SOURCE }),
      view({ pathId: 8, trafficClass: CLASS_CODE.ai }),
      view({ pathId: 8, trafficClass: CLASS_CODE.bot }),
      view({ status: 404 }),
      view({ pathId: 9, day: DAY + 1 }),
    ];
    const rows = chunkScopeViews(views, sectionsOf);
    const find = (day: number, scopeId: number, sourceId: number) => rows.find((r) => r.day === day && r.scopeId === scopeId && r.sourceId === sourceId);
    expect(find(DAY, SITE_PATH_ID, ALL_SOURCES)).toMatchObject({ human: 1, ai: 1, bot: 1 });
    expect(find(DAY, DOCS, ALL_SOURCES)).toMatchObject({ human: 1, ai: 1, bot: 1 });
    expect(find(DAY, GUIDES, ALL_SOURCES)).toMatchObject({ human: 1, ai: 0, bot: 0 });
    for (const scope of [SITE_PATH_ID, DOCS, GUIDES]) expect(find(DAY, scope, SOURCE)).toMatchObject({ human: 1, ai: 0, bot: 0 });
    expect(find(DAY + 1, SITE_PATH_ID, ALL_SOURCES)).toMatchObject({ human: 1 });
    expect(rows).toHaveLength(7);
    // The site's arrivals per source are the daily referral rows summed over pages.
    const arrivals = chunkReferralViews(views).reduce((sum, r) => sum + r.views, 0);
    expect(find(DAY, SITE_PATH_ID, SOURCE)?.human).toBe(arrivals);
  });
});

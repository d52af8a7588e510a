import { describe, expect, it } from "vitest";
import { impactLine } from "../../../../src/app/impact/impact-line.js";
import { renderTrackingComment } from "../../../../src/app/forges/tracking.js";
import { slackMessage } from "../../../../src/app/project-webhooks/request.js";
import type { ImpactNotice } from "../../../../src/shared/impact-schemas.js";

const notice: ImpactNotice = {
  days: 7,
  mergedAt: "2026-11-02T15:00:00.000Z",
  before: { dateFrom: "2026-10-26", dateTo: "2026-11-02" },
  after: { dateFrom: "2026-11-03", dateTo: "2026-11-10" },
  pages: 2,
  changedPages: { humanVisitors: { before: 120, after: 150 }, aiReads: { before: 0, after: 12 }, aiFailures: { before: 40, after: 0 }, arrivalsFromAi: { before: 0, after: 0 } },
  site: { humanVisitors: { before: 2000, after: 2040 }, aiReads: { before: 500, after: 450 }, aiFailures: { before: 60, after: 20 }, arrivalsFromAi: { before: 0, after: 3 } },
};

describe("the first week's line", () => {
  it("gives each measure before → after with its change and the site's beside it", () => {
    expect(impactLine(notice)).toBe(
      "First 7 days after the merge (2026-11-03 to 2026-11-10, exclusive) against the 7 before, on the 2 changed pages: " +
        "people 120 → 150 (+25%; site +2%), AI reads 0 → 12 (new; site -10%), AI fetch failures 40 → 0 (-100%; site -67%), arrivals from AI answers 0 → 0 (site new).",
    );
    expect(impactLine({ ...notice, pages: 1 })).toContain("on the changed page:");
  });

  it("is the tracking comment's Impact line once known, and the Slack message of job.impact", () => {
    const view = { jobId: "j1", status: "archived" as const, error: null, instructions: [], run: null, impact: null, waiting: null };
    expect(renderTrackingComment(view)).not.toContain("**Impact**");
    expect(renderTrackingComment({ ...view, impact: notice })).toContain(`**Impact**: ${impactLine(notice)}`);
    const job = { id: "j1", source: { repository: "https://github.com/acme/docs", ref: "inkwell/j1" }, prLink: "https://github.com/acme/docs/pull/3", summary: null, error: null } as never;
    const slack = slackMessage({ type: "job.impact", timestamp: notice.mergedAt, data: { ...(job as object), impact: notice } as never });
    expect(slack.text).toContain("has a week of readers since its pull request was merged");
    expect(slack.text).toContain("people 120 → 150 (+25%; site +2%)");
  });
});

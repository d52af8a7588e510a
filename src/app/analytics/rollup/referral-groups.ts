import { sectionPaths } from "./section-paths.js";
import type { Queryable } from "../../store/db.js";
import { aiOperatorOfSource, channelOfSource, type Referral, type ReferralChannel } from "../ingest/referral.js";

/**
 * Referrals are counted as groups of views, like sections (page-sections.ts): an `analytics_paths`
 * row that is no page (it does not start with `/`) whose day masks and reach counters the rollup
 * keeps like a page's. A person's view that arrived from somewhere widens the masks of its source
 * (`@source/chatgpt.com`), its channel on the site (`@channel/ai`), on its page
 * (`@channel/ai/docs/setup`) and on the page's sections (`@channel/ai/docs/`), so each of those
 * counts distinct visitors exactly.
 */
export const sourceGroup = (source: string) => `@source/${source}`;
export const channelGroup = (channel: ReferralChannel, scope = "") => `@channel/${channel}${scope}`;
export const SOURCE_GROUP_PREFIX = "@source/";
/** An AI operator's arrivals, whichever of its answer engines they came from (`@operator/openai`): the crawl-to-referral ratio's people. */
export const operatorGroup = (operator: string) => `${OPERATOR_GROUP_PREFIX}${operator}`;
export const OPERATOR_GROUP_PREFIX = "@operator/";

/** The groups a referred view of `pagePath` counts in; the source's first. */
export function referralGroups(referral: Referral, pagePath: string): string[] {
  const { channel } = referral;
  const operator = channel === "ai" ? aiOperatorOfSource(referral.source) : null;
  return [
    sourceGroup(referral.source),
    channelGroup(channel),
    channelGroup(channel, pagePath),
    ...sectionPaths(pagePath).map((section) => channelGroup(channel, section)),
    ...(operator ? [operatorGroup(operator)] : []),
  ];
}

/** SQL: whether an analytics_paths row is a source's group. */
export const IS_SOURCE_GROUP = `left(path, ${SOURCE_GROUP_PREFIX.length}) = '${SOURCE_GROUP_PREFIX}'`;

/** The project's sources of a channel, classified by the current list (so an updated list reclassifies old arrivals too). */
export async function sourceIdsOf(db: Queryable, projectId: string, channel: ReferralChannel): Promise<number[]> {
  const rows = await db.query<{ id: number; source: string }>(
    `SELECT id, substr(path, ${SOURCE_GROUP_PREFIX.length + 1}) AS source FROM analytics_paths WHERE project_id = $1 AND ${IS_SOURCE_GROUP}`,
    [projectId],
  );
  return rows.filter((row) => channelOfSource(row.source) === channel).map((row) => row.id);
}

import type { Queryable } from "../../store/db.js";
import { chunkFormatMasks, planFormats } from "./format-plan.js";
import { monthlySums } from "./month-sums.js";
import { byMaskKey, chunkMasks, planReach, planRollup, siteFormatViews, type ReachPlan } from "./plan.js";
import type { ChunkView, RollupPlan } from "./plan-types.js";
import { chunkGroupMasks, chunkReferralViews, chunkScopeViews } from "./group-plan.js";
import { chunkAgentMasks, chunkAgentPageMonths, planAgentReach, type AgentPageMonth, type AgentReachPlan } from "./agent-plan.js";
import {
  AGENT_FIRST_VISITS,
  AGENT_PAGE_MONTHS,
  AGENT_PAGES,
  AGENT_RETURNS,
  AGENT_VIEWS,
  CATEGORY_VIEWS,
  DAILY_REFERRALS,
  DAILY_SCOPE_VIEWS,
  DAILY_VIEWS,
  FAILURES,
  FIRST_VISITS,
  FORMAT_FIRST_VISITS,
  FORMAT_RETURNS,
  FORMAT_WINDOW_REACH,
  FORMAT_VIEWS,
  MONTHLY_AGENT_PAGES,
  MONTHLY_FORMAT_VIEWS,
  SITE_FORMAT_VIEWS,
  MONTHLY_REFERRALS,
  MONTHLY_VIEWS,
  RETURNS,
  upsertRows,
  WINDOW_REACH,
} from "./tables.js";
import { VisitorStates } from "./visitor-states.js";

/**
 * Counts one chunk of views taken from the inbox, in the transaction that took them: the
 * visitors' states first (a partition's own rows, visitor-states.ts), then every counter they
 * imply (shared, so written last).
 * `sectionsOf` gives each page's sections (page-sections.ts).
 */
export async function countChunk(tx: Queryable, views: ChunkView[], sectionsOf: ReadonlyMap<number, number[]>): Promise<void> {
  const masks = chunkMasks(views);
  const groupMasks = chunkGroupMasks(views, sectionsOf);
  const agentMasks = chunkAgentMasks(views, sectionsOf);
  const allMasks = new Map([...masks, ...groupMasks]);
  const states = await VisitorStates.read(tx, views);
  const storedMasks = states.masksOf(allMasks);
  const mixedBefore = storedMasks.filter((mask) => (mask.formats ?? 0) !== 0);
  const stored = byMaskKey(storedMasks);
  const formats = planFormats(stored, masks, states.formatMasksOf(mixedBefore), chunkFormatMasks(views));
  const agents = { reach: planAgentReach(states.agentMasksOf(agentMasks), agentMasks), pageMonths: chunkAgentPageMonths(views) };
  const plan = planRollup(views, stored, masks);
  const groups = planReach(stored, groupMasks);
  plan.windowReach.push(...groups.windowReach);
  plan.firstVisits.push(...groups.firstVisits);
  plan.returns.push(...groups.returns);
  // The visitors' own rows first (a partition's), then the counters partitions share.
  states.orMasks(allMasks);
  states.orFormatMasks(formats.writes);
  states.orAgentMasks(agentMasks);
  await states.write(tx);
  await writePlan(tx, plan, formats.counters, agents);
  const referrals = chunkReferralViews(views);
  await upsertRows(tx, DAILY_REFERRALS, referrals);
  await upsertRows(tx, MONTHLY_REFERRALS, monthlySums(DAILY_REFERRALS, referrals));
  await upsertRows(tx, DAILY_SCOPE_VIEWS, chunkScopeViews(views, sectionsOf));
}

/** Writes the counters: partitions share them, so they come last (after the masks), holding their row locks briefly before the commit. */
async function writePlan(tx: Queryable, plan: RollupPlan, formatReach: ReachPlan, agents: { reach: AgentReachPlan; pageMonths: AgentPageMonth[] }): Promise<void> {
  await upsertRows(tx, DAILY_VIEWS, plan.dailyViews);
  await upsertRows(tx, MONTHLY_VIEWS, monthlySums(DAILY_VIEWS, plan.dailyViews));
  await upsertRows(tx, FORMAT_VIEWS, plan.formatViews);
  await upsertRows(tx, MONTHLY_FORMAT_VIEWS, monthlySums(FORMAT_VIEWS, plan.formatViews));
  await upsertRows(tx, SITE_FORMAT_VIEWS, siteFormatViews(plan.formatViews));
  await upsertRows(tx, CATEGORY_VIEWS, plan.categoryViews);
  await upsertRows(tx, AGENT_VIEWS, plan.agentViews);
  await upsertRows(tx, AGENT_PAGES, plan.agentPages);
  await upsertRows(tx, MONTHLY_AGENT_PAGES, monthlySums(AGENT_PAGES, plan.agentPages));
  await upsertRows(tx, AGENT_PAGE_MONTHS, agents.pageMonths);
  await upsertRows(tx, FAILURES, plan.failures);
  await upsertRows(tx, WINDOW_REACH, plan.windowReach);
  await upsertRows(tx, FIRST_VISITS, plan.firstVisits);
  await upsertRows(tx, RETURNS, plan.returns);
  await upsertRows(tx, FORMAT_WINDOW_REACH, formatReach.windowReach);
  await upsertRows(tx, FORMAT_FIRST_VISITS, formatReach.firstVisits);
  await upsertRows(tx, FORMAT_RETURNS, formatReach.returns);
  await upsertRows(tx, AGENT_FIRST_VISITS, agents.reach.firstVisits);
  await upsertRows(tx, AGENT_RETURNS, agents.reach.returns);
}


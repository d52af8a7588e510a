import { AI_AGENTS } from "../classify/ai-agents.js";
import { operatorName, operatorOfAgent } from "../classify/operator-names.js";
import { aiOperatorOfSource } from "../ingest/referral.js";
import { RobotsRules } from "../robots/robots-rules.js";
import { robotsBodies, robotsTimelines } from "../robots/robots-versions.js";
import type { Queryable } from "../../store/db.js";
import type { DayRange } from "../../../shared/epoch-days.js";
import { referrersReport } from "./referral-reports.js";
import { robotsComplianceReport, robotsDisallowedReport } from "./robots-reports.js";
import { SUGGESTION_DAYS, type Suggestion } from "./suggestion.js";

/** Disallowed views over the window from which an agent "keeps fetching" what robots.txt refuses it. */
export const MIN_DISALLOWED_VIEWS = 3;
/** Agents read from the compliance report, most disallowed first. */
const AGENT_ROWS = 20;
/** Disallowed rows read (most views first): enough to name each agent's main paths and rules. */
const DISALLOWED_ROWS = 200;
/** AI answer referrers read (most visitors first). */
const REFERRER_ROWS = 50;

const EDIT_IN_REPOSITORY = "If this repository holds the site's robots.txt (e.g. public/robots.txt or static/robots.txt), edit it there, changing nothing else; if robots.txt is not in this repository, change nothing and say where it must be changed instead.";

/**
 * robots.txt suggestions (docs/analytics/robots.md, "Acting on it"), over the same window as the
 * readers' suggestions: an agent that keeps fetching what robots.txt disallows it (its own group
 * makes the refusal explicit), called verified only when every one of its views in the window was;
 * views whose address cannot be tied to the operator accuse no one (spoofed claims are never judged,
 * so they suggest nothing); and an AI answer product that sends readers while the
 * robots.txt in force blocks its company's fetchers from the pages AI reads most. Cost: the
 * disallowed and referrers reports over the window, and one parse of the latest version.
 */
export async function robotsSuggestions(db: Queryable, projectId: string, range: DayRange, mostReadPaths: readonly string[]): Promise<Suggestion[]> {
  const [{ agents }, { disallowed }, { referrers }, timelines, claims] = await Promise.all([
    robotsComplianceReport(db, projectId, range, { limit: AGENT_ROWS, offset: 0 }),
    robotsDisallowedReport(db, projectId, range, { limit: DISALLOWED_ROWS, offset: 0 }, null),
    referrersReport(db, projectId, range, { limit: REFERRER_ROWS, offset: 0 }, "ai"),
    robotsTimelines(db, [projectId]),
    agentClaims(db, projectId, range),
  ]);
  // The compliance report counts each agent's disallowed views; the disallowed rows (most views first) name the pages and rules.
  const suggestions = agents
    .filter((agent) => agent.disallowed >= MIN_DISALLOWED_VIEWS)
    .map((agent) => {
      const rows = disallowed.filter((row) => row.agent === agent.agent);
      const seen = { agent: agent.agent, operator: agent.operator, views: agent.disallowed, claims: claims.get(agent.agent) ?? { verified: 0, unverifiable: 0 } };
      return ignoredSuggestion(seen, [...new Set(rows.map((row) => row.path))], [...new Set(rows.flatMap((row) => (row.rule ? [row.rule] : [])))]);
    });

  const latest = timelines.get(projectId)?.at(-1);
  if (latest && referrers.length > 0) {
    const rules = new RobotsRules((await robotsBodies(db, [latest.id])).get(latest.id) ?? "");
    const paths = ["/", ...mostReadPaths.filter((path) => path !== "/")];
    for (const referrer of referrers) {
      const key = aiOperatorOfSource(referrer.source);
      const operator = key ? operatorName(key) : undefined;
      if (!operator) continue;
      // The company's fetchers that read for answers (search, assistant), not its training crawlers.
      const fetchers = AI_AGENTS.filter((agent) => agent.category !== "crawler" && operatorOfAgent(agent.name, agent.operator) === operator);
      const blocked = fetchers.flatMap((agent) => {
        const refused = paths.map((path) => ({ path, judgement: rules.judge(path, agent.name) })).filter((p) => p.judgement.verdict === "disallowed");
        return refused.length > 0 ? [{ agent: agent.name, refused }] : [];
      });
      if (blocked.length > 0) suggestions.push(blockedReferrerSuggestion(referrer.source, operator, referrer.visitors, blocked));
    }
  }
  return suggestions;
}

const listed = (items: string[], max = 5) => items.slice(0, max).join(", ") + (items.length > max ? ` and ${items.length - max} more` : "");

/** Each agent's views in the range by how its claim checked out (judged views are verified or unverifiable; spoofed ones are bots). */
async function agentClaims(db: Queryable, projectId: string, range: DayRange): Promise<Map<string, { verified: number; unverifiable: number }>> {
  const rows = await db.query<{ name: string; verified: string | number; unverifiable: string | number }>(
    `SELECT a.name, sum(d.verified) AS verified, sum(d.unverifiable) AS unverifiable FROM analytics_daily_agents d JOIN analytics_agents a ON a.id = d.agent_id
     WHERE d.project_id = $1 AND ($2::int IS NULL OR d.day >= $2) AND ($3::int IS NULL OR d.day < $3) GROUP BY a.name`,
    [projectId, range.from, range.to],
  );
  return new Map(rows.map((row) => [row.name, { verified: Number(row.verified), unverifiable: Number(row.unverifiable) }]));
}

interface IgnoringAgent {
  agent: string;
  operator: string;
  /** Its disallowed views in the window. */
  views: number;
  claims: { verified: number; unverifiable: number };
}

function ignoredSuggestion({ agent, operator, views, claims }: IgnoringAgent, paths: string[], rules: string[]): Suggestion {
  const verified = claims.unverifiable === 0 && claims.verified > 0;
  const what = `${views} disallowed pages${paths.length > 0 ? ` (${listed(paths, 3)})` : ""}${rules.length > 0 ? ` despite ${listed(rules, 2)}` : ""}`;
  const seen = `${views} views in the last ${SUGGESTION_DAYS} days${paths.length > 0 ? `, of ${listed(paths)}` : ""}${rules.length > 0 ? `, under ${listed(rules, 3)}` : ""}`;
  const explicit = `name it in robots.txt with \`User-agent: ${agent}\`. An agent follows only the most specific group that names it, so its group must carry every rule of the group it follows now (usually \`*\`), not only the lines it ignored: add the line to that group, or give it a group of its own that repeats all of them. Keep every other group as it is.`;
  if (verified) {
    return {
      kind: "robots",
      path: "/robots.txt",
      detail: `${agent} fetched ${what}`,
      prompt: [`The verified AI agent ${agent} keeps fetching pages the site's robots.txt disallows it: ${seen}.`, `Make the refusal explicit for it: ${explicit}`, EDIT_IN_REPOSITORY].join("\n"),
    };
  }
  // Not every view could be tied to the operator: a claim of the name, no accusation of the agent.
  const unchecked =
    claims.verified === 0
      ? `${operator} publishes no addresses or signatures to check them against`
      : `only ${claims.verified} of their ${claims.verified + claims.unverifiable} views could be tied to ${operator}`;
  return {
    kind: "robots",
    path: "/robots.txt",
    detail: `Clients calling themselves ${agent} fetched ${what} (unverifiable: ${unchecked})`,
    prompt: [
      `Clients calling themselves ${agent} keep fetching pages the site's robots.txt disallows ${agent}: ${seen}. Their claim cannot be checked (${unchecked}), so this is no proof that ${agent} itself ignores robots.txt: any client can send its name.`,
      `Make the rules for ${agent} explicit all the same: ${explicit}`,
      EDIT_IN_REPOSITORY,
    ].join("\n"),
  };
}

function blockedReferrerSuggestion(source: string, operator: string, visitors: number, blocked: { agent: string; refused: { path: string; judgement: { rule: string | null } }[] }[]): Suggestion {
  const agents = blocked.map((b) => b.agent);
  const paths = [...new Set(blocked.flatMap((b) => b.refused.map((r) => r.path)))];
  const rules = [...new Set(blocked.flatMap((b) => b.refused.flatMap((r) => (r.judgement.rule ? [r.judgement.rule] : []))))];
  return {
    kind: "robots",
    path: "/robots.txt",
    detail: `${source} sent ${visitors} visitors, but robots.txt blocks ${listed(agents)} (${operator}) from ${listed(paths, 3)}`,
    prompt: [
      `${source} (${operator}) sent ${visitors} readers to the site in the last ${SUGGESTION_DAYS} days, but the robots.txt in force blocks ${operator}'s answer fetchers ${listed(agents)} from ${listed(paths)}${rules.length > 0 ? ` (${listed(rules, 3)})` : ""}, so ${source} cannot read those pages to quote and link them.`,
      `Let ${listed(agents)} fetch the documentation pages: narrow the Disallow lines that catch ${agents.length > 1 ? "them" : "it"}, or give ${agents.length > 1 ? "them" : "it"} a group of ${agents.length > 1 ? "their" : "its"} own that repeats every rule of the group ${agents.length > 1 ? "they follow" : "it follows"} now except those lines (an agent follows only the most specific group that names it). Leave training crawlers' rules as they are.`,
      EDIT_IN_REPOSITORY,
    ].join("\n"),
  };
}

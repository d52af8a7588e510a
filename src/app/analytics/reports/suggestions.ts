import type { Queryable } from "../../store/db.js";
import { failuresReport } from "./agent-reports.js";
import { robotsSuggestions } from "./robots-suggestions.js";
import { SUGGESTION_DAYS, type Suggestion } from "./suggestion.js";
import { visitorsReport } from "./visitors-report.js";

/** Failure rows read to find the most-failed missing pages (a page can fail with several statuses). */
const FAILURE_ROWS = 100;
/** Answers that say the page is not there: a redirect can fix them. */
const MISSING = new Set([404, 410]);

/**
 * Jobs the site's own readers suggest (docs/architecture.md, "Automations"): pages AI agents asked
 * for and did not find (a redirect to where the content lives now), and the pages AI reads most
 * (worth checking they are current), and what the site's robots.txt should say to AI agents
 * (`robots-suggestions.ts`). Read from the failures, visitors, robots and referrers reports of the
 * last SUGGESTION_DAYS whole days, so they cost what those reports cost.
 */
export async function readerSuggestions(db: Queryable, projectId: string, today: number, limit = 10): Promise<{ missing: Suggestion[]; mostRead: Suggestion[]; robots: Suggestion[] }> {
  // The last SUGGESTION_DAYS days, today included (`to` is exclusive).
  const range = { from: today + 1 - SUGGESTION_DAYS, to: today + 1 };
  const [{ failures }, { visitors }] = await Promise.all([
    failuresReport(db, projectId, range, { limit: FAILURE_ROWS, offset: 0 }),
    visitorsReport(db, projectId, range, { limit, offset: 0 }, { by: "ai", dir: "desc" }),
  ]);
  const missing = new Map<string, { views: number; statuses: Set<number>; agents: Set<string> }>();
  for (const failure of failures.filter((f) => MISSING.has(f.status))) {
    const page = missing.get(failure.path) ?? { views: 0, statuses: new Set(), agents: new Set() };
    page.views += failure.views;
    page.statuses.add(failure.status);
    for (const agent of failure.agents) page.agents.add(agent);
    missing.set(failure.path, page);
  }
  const mostRead = visitors.filter((row) => row.ai > 0);
  const robots = await robotsSuggestions(db, projectId, range, mostRead.map((row) => row.path));
  return {
    missing: [...missing]
      .sort(([a, x], [b, y]) => y.views - x.views || (a < b ? -1 : 1))
      .slice(0, limit)
      .map(([path, page]) => redirectSuggestion(path, page.views, [...page.statuses].sort(), [...page.agents].sort())),
    mostRead: mostRead.map((row) => refreshSuggestion(row.path, row.ai)),
    robots: robots.slice(0, limit),
  };
}

function redirectSuggestion(path: string, views: number, statuses: number[], agents: string[]): Suggestion {
  const who = agents.slice(0, 5).join(", ") + (agents.length > 5 ? ` and ${agents.length - 5} more` : "");
  return {
    kind: "redirect",
    path,
    detail: `${views} failed AI fetches (${statuses.join(", ")}) by ${who}`,
    prompt: [
      `AI agents asked for ${path} and the site answered ${statuses.join(" or ")} (${views} times in the last ${SUGGESTION_DAYS} days, by ${who}).`,
      `Find the page that now covers what ${path} suggests and add a redirect from ${path} to it, the way this docs framework declares redirects.`,
      "If no page covers it, change nothing and say so in your answer.",
    ].join("\n"),
  };
}

function refreshSuggestion(path: string, aiVisitors: number): Suggestion {
  return {
    kind: "refresh",
    path,
    detail: `${aiVisitors} AI visitors`,
    prompt: [
      `${path} is one of the pages AI agents read most (${aiVisitors} AI visitors in the last ${SUGGESTION_DAYS} days), so what it says is repeated to many readers.`,
      "Check that it is current: version numbers, commands, options, links and examples. Fix what is outdated; if it is all current, change nothing and say so.",
    ].join("\n"),
  };
}

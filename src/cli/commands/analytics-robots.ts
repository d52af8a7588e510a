import type { RobotsChanges, RobotsCompliance, RobotsDisallowed, RobotsOperators, RobotsVersions } from "../../shared/robots-schemas.js";
import { enc, intOption, print, projectOf, type CommandContext } from "../command-context.js";
import { table } from "../format.js";
import { exportCsv, fetchReport, more, printRanged } from "../report-fetch.js";
import { oneOf } from "./analytics-trends.js";

const VIEWS = ["agent", "operator", "page", "version"] as const;
const ENDPOINT = { agent: "robots", operator: "robots/operators", page: "robots/disallowed", version: "robots/changes" } as const;

/** `analytics robots`: the compliance report per agent (default), per operator, the disallowed pages with their rule, or each version's before and after. */
export async function robotsCommand(ctx: CommandContext) {
  const projectId = projectOf(ctx);
  const by = (oneOf(ctx, "by", VIEWS) ?? "agent") as (typeof VIEWS)[number];
  const path = `/v1/analytics/${enc(projectId)}/${ENDPOINT[by]}`;
  const extra = by === "page" ? { agent: ctx.values.agent } : {};
  if (ctx.values.csv) return exportCsv(ctx, path, extra);
  const counts = (c: { allowed: number; disallowed: number; unknown: number; robotsReads: number }) => [c.allowed, c.disallowed, c.unknown, c.robotsReads];
  const COUNT_HEADERS = ["ALLOWED", "DISALLOWED", "UNKNOWN", "ROBOTS.TXT READS"];
  if (by === "agent") {
    const { page, rows, nextOffset, range } = await fetchReport<RobotsCompliance>(ctx, path, "agents");
    const agents = rows as RobotsCompliance["agents"];
    return printRanged(ctx, range, { totals: page.totals, agents, hasMore: page.hasMore }, () =>
      agents.length === 0 ? "No AI agent's view in this range." : `${table(["AGENT", "OPERATOR", ...COUNT_HEADERS], agents.map((a) => [a.agent, a.operator, ...counts(a)]))}${more(page.hasMore, nextOffset)}`,
    );
  }
  if (by === "operator") {
    const { page, rows, nextOffset, range } = await fetchReport<RobotsOperators>(ctx, path, "operators");
    const operators = rows as RobotsOperators["operators"];
    return printRanged(ctx, range, { operators, hasMore: page.hasMore }, () =>
      operators.length === 0 ? "No AI agent's view in this range." : `${table(["OPERATOR", "AGENTS", ...COUNT_HEADERS], operators.map((o) => [o.operator, o.agents, ...counts(o)]))}${more(page.hasMore, nextOffset)}`,
    );
  }
  if (by === "page") {
    const { page, rows, nextOffset, range } = await fetchReport<RobotsDisallowed>(ctx, path, "disallowed", extra);
    const disallowed = rows as RobotsDisallowed["disallowed"];
    return printRanged(ctx, range, { disallowed, hasMore: page.hasMore }, () =>
      disallowed.length === 0
        ? "No view robots.txt disallowed in this range."
        : `${table(["AGENT", "PATH", "RULE", "VERSION", "VIEWS", "FIRST SEEN", "LAST SEEN"], disallowed.map((d) => [d.agent, d.path, d.rule ?? "", d.versionId, d.views, d.firstSeen, d.lastSeen]))}${more(page.hasMore, nextOffset)}`,
    );
  }
  const { page, rows, nextOffset, range } = await fetchReport<RobotsChanges>(ctx, path, "versions");
  const versions = rows as RobotsChanges["versions"];
  return printRanged(ctx, range, { versions, hasMore: page.hasMore }, () =>
    versions.length === 0
      ? "No robots.txt version yet."
      : `${table(
          ["VERSION", "SINCE", "AGENT", "DISALLOWED", "BEFORE", "ALLOWED", "BEFORE"],
          versions.flatMap((v) => v.agents.map((a) => [v.versionId, v.effectiveAt, a.agent, a.disallowed, a.before.disallowed, a.allowed, a.before.allowed])),
        )}${more(page.hasMore, nextOffset)}`,
  );
}

/** `analytics robots-versions`: the versions with their source, latest first. */
export async function robotsVersionsCommand(ctx: CommandContext) {
  const projectId = projectOf(ctx);
  const query = new URLSearchParams({ limit: String(intOption(ctx.values.limit, "limit") ?? 20), offset: String(intOption(ctx.values.offset, "offset") ?? 0) });
  const page = await ctx.client.request<RobotsVersions>("GET", `/v1/analytics/${enc(projectId)}/robots/versions?${query}`, ctx.projectKey);
  print(ctx, page, () =>
    page.versions.length === 0
      ? "No robots.txt version yet (an operator adds them: inkwell robots add, or inkwell robots source)."
      : table(["ID", "SINCE", "SOURCE", "BYTES", "SHA-256", "CONTENT SIGNALS"], page.versions.map((v) => [v.id, v.effectiveAt, v.source, v.bytes, v.sha256.slice(0, 12), v.contentSignals.map((c) => `${c.userAgents.join(",")}: ${["search", "aiInput", "aiTrain"].filter((k) => k in c).map((k) => `${k}=${c[k as "search"] ? "yes" : "no"}`).join(" ")}`).join("; ")])),
  );
}

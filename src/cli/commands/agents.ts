import type { AgentRangeListView, AgentRangeRefreshView } from "../../shared/admin-schemas.js";
import { print } from "../command-context.js";
import { table } from "../format.js";
import type { NounRuns } from "./command-usage.js";

/** The address lists AI agents are verified against (operator commands). */
export const agents: NounRuns<"agents"> = {
  async ranges(ctx) {
    const { lists } = await ctx.client.request<{ lists: AgentRangeListView[] }>("GET", "/admin/agents/ranges", ctx.operator);
    print(ctx, lists, () => table(["LIST", "AGENTS", "AS OF", "PREFIXES", "URL"], lists.map((l) => [l.id, l.agents.join(", "), l.asOf, l.prefixes, l.url])));
  },

  async refresh(ctx) {
    const { results } = await ctx.client.request<{ results: AgentRangeRefreshView[] }>("POST", "/admin/agents/refresh", ctx.operator);
    const failed = results.filter((r) => !r.ok);
    print(ctx, results, () => {
      const body = table(
        ["LIST", "RESULT", "AS OF", "PREFIXES"],
        results.map((r) => [r.id, r.ok ? "updated" : `kept the copy in use: ${r.error ?? "failed"}`, r.asOf ?? "", r.prefixes ?? ""]),
      );
      return `${body}\n\n${results.length - failed.length} of ${results.length} lists updated${failed.length > 0 ? "; the others keep their copy in use (run again later, or check the server's internet access)" : ""}`;
    });
  },
};

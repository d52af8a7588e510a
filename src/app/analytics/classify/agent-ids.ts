import type { Queryable } from "../../store/db.js";
import { recordset } from "../recordset.js";

/** What is stored about an agent: the name reports show, who runs it, and its AI category. */
export interface AgentFacts {
  name: string;
  operator: string;
  category: string;
}

/** Agent names remembered per process; past it the memory starts over. */
const MAX_CACHED = 20_000;

/**
 * The integer id of each AI agent (shared by all projects), which the inbox and the per-agent
 * aggregates store instead of its name. Resolved when views are accepted, like page ids
 * (page-ids.ts), each new agent committed on its own. When the agent lists are refreshed and an
 * agent's operator or category changes, the next view of it updates the stored facts.
 */
export class AgentIds {
  readonly #cache = new Map<string, { id: number; facts: AgentFacts }>();

  constructor(private readonly db: Queryable) {}

  async resolve(agents: Iterable<AgentFacts>): Promise<(name: string) => number | undefined> {
    const ids = new Map<string, number>();
    const missing = new Map<string, AgentFacts>();
    for (const agent of agents) {
      const known = this.#cache.get(agent.name);
      if (known && known.facts.operator === agent.operator && known.facts.category === agent.category) ids.set(agent.name, known.id);
      else missing.set(agent.name, agent);
    }
    if (missing.size > 0) {
      if (this.#cache.size + missing.size > MAX_CACHED) this.#cache.clear();
      // In one order: two batches inserting the same new agents must not deadlock.
      const rows = await this.db.query<{ id: number; name: string; operator: string; category: string }>(
        `INSERT INTO analytics_agents AS a (name, operator, category)
         SELECT r.name, r.operator, r.category FROM json_to_recordset($1::json) AS r (name text, operator text, category text)
         ON CONFLICT (name) DO UPDATE SET operator = excluded.operator, category = excluded.category
         RETURNING a.id, a.name, a.operator, a.category`,
        [recordset([...missing.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))],
      );
      for (const row of rows) {
        ids.set(row.name, row.id);
        this.#cache.set(row.name, { id: row.id, facts: { name: row.name, operator: row.operator, category: row.category } });
      }
    }
    return (name) => ids.get(name);
  }
}

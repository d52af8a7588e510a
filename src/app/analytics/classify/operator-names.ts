import { AI_AGENTS } from "./ai-agents.js";
import { AI_OPERATOR_NAMES, AI_OPERATOR_OF_AGENT } from "./ai-operators.generated.js";

/**
 * One name per AI operator on every table, CSV and CLI listing. The company lists
 * (ai-operators.generated.ts) say who operates an agent; the curated agent table's short name for
 * that company ("Amazon", not "Amazon.com, Inc.") is the one shown, the company list's own name
 * where the curated table has none.
 */
const CURATED_NAMES: ReadonlyMap<string, string> = new Map(
  AI_AGENTS.flatMap((agent) => {
    const key = AI_OPERATOR_OF_AGENT.get(agent.name);
    return key ? [[key, agent.operator] as const] : [];
  }),
);

/** The shown name of an operator by its key in the company lists. */
export function operatorName(key: string): string | undefined {
  return CURATED_NAMES.get(key) ?? AI_OPERATOR_NAMES.get(key);
}

/** The shown operator of an agent: its company's name where a list places it, else what its agent list says. */
export function operatorOfAgent(agent: string, listedOperator: string): string {
  const key = AI_OPERATOR_OF_AGENT.get(agent);
  return (key && operatorName(key)) ?? listedOperator;
}

import { describe, expect, it } from "vitest";
import { AI_AGENTS } from "../../../../../src/app/analytics/classify/ai-agents.js";
import { AI_OPERATOR_NAMES, AI_OPERATOR_OF_AGENT } from "../../../../../src/app/analytics/classify/ai-operators.generated.js";
import { GENERATED_AI_AGENTS } from "../../../../../src/app/analytics/classify/known-ai-agents.generated.js";
import { operatorName, operatorOfAgent } from "../../../../../src/app/analytics/classify/operator-names.js";

const everyAgent = [...AI_AGENTS, ...GENERATED_AI_AGENTS].map((agent) => ({ name: agent.name, operator: agent.operator }));

describe("operator names", () => {
  it("gives every company one name, whichever of its agents or answer engines is shown", () => {
    const namesByKey = new Map<string, Set<string>>();
    for (const agent of everyAgent) {
      const key = AI_OPERATOR_OF_AGENT.get(agent.name);
      if (!key) continue;
      const names = namesByKey.get(key) ?? new Set<string>();
      names.add(operatorOfAgent(agent.name, agent.operator));
      namesByKey.set(key, names);
    }
    // Amazon's agents came as "Amazon" (curated) and "Amazon.com, Inc." (upstream lists) before.
    expect(namesByKey.get("amazon")).toEqual(new Set(["Amazon"]));
    for (const [key, names] of namesByKey) expect([...names], key).toEqual([operatorName(key)]);
  });

  it("takes the curated table's short name where it has one, the company list's otherwise", () => {
    expect(operatorName("openai")).toBe("OpenAI");
    expect(AI_OPERATOR_NAMES.get("openai")).not.toBe("OpenAI");
    const listedOnly = [...AI_OPERATOR_NAMES.keys()].find((key) => !AI_AGENTS.some((agent) => AI_OPERATOR_OF_AGENT.get(agent.name) === key));
    expect(listedOnly).toBeDefined();
    expect(operatorName(listedOnly!)).toBe(AI_OPERATOR_NAMES.get(listedOnly!));
  });

  it("leaves an agent no company list places with its own list's operator", () => {
    expect(operatorOfAgent("an agent nobody lists", "Someone")).toBe("Someone");
  });

  it("never gives one company's curated agents two names", () => {
    const curatedByKey = new Map<string, Set<string>>();
    for (const agent of AI_AGENTS) {
      const key = AI_OPERATOR_OF_AGENT.get(agent.name);
      if (key) curatedByKey.set(key, (curatedByKey.get(key) ?? new Set()).add(agent.operator));
    }
    for (const [key, names] of curatedByKey) expect(names.size, `${key}: ${[...names].join(", ")}`).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { agents } from "../../../../src/cli/commands/agents.js";
import { automations } from "../../../../src/cli/commands/automations.js";
import { analytics } from "../../../../src/cli/commands/analytics.js";
import { COMMANDS_USAGE, NOUNS, findCommand } from "../../../../src/cli/commands/index.js";
import { jobs } from "../../../../src/cli/commands/jobs.js";
import { keys } from "../../../../src/cli/commands/keys.js";
import { projects } from "../../../../src/cli/commands/projects.js";
import { store } from "../../../../src/cli/commands/store.js";
import { webhooks } from "../../../../src/cli/commands/webhooks.js";

const usageLines = (noun: (typeof NOUNS)[number]) => Object.values(noun.commands).map((command) => `  ${command.usage}`);

describe("the command registry", () => {
  it("has the eight nouns, in the order the help lists them", () => {
    expect(NOUNS.map((noun) => noun.name)).toEqual(["projects", "keys", "webhooks", "automations", "agents", "jobs", "analytics", "store"]);
  });

  it("builds the help from each noun's usage lines under its group's heading", () => {
    expect(COMMANDS_USAGE).toBe(
      [
        ["Operator (token: --token or INKWELL_ADMIN_TOKEN):", ...usageLines(projects), ...usageLines(keys), ...usageLines(webhooks), ...usageLines(automations), ...usageLines(agents)].join("\n"),
        ["Agent jobs (key: --key or INKWELL_API_KEY; project: --project or INKWELL_PROJECT):", ...usageLines(jobs)].join("\n"),
        ["Analytics (key and project as above; --from and --through are included, --to is excluded like the API's dateTo):", ...usageLines(analytics)].join("\n"),
        ["Store (on the service's machine; --data-dir or DATA_DIR, default ./data; backup takes the operator token):", ...usageLines(store)].join("\n"),
      ].join("\n\n"),
    );
  });

  it("documents each command under the words that run it", () => {
    const commands = NOUNS.flatMap((noun) => Object.entries(noun.commands).map(([action, command]) => ({ words: `${noun.name} ${action}`, command })));
    expect(commands).toHaveLength(38);
    for (const { words, command } of commands) {
      expect(command.usage.split(/\s+/).slice(0, 2).join(" ")).toBe(words);
      const [noun, action] = words.split(" ");
      expect(findCommand(noun as string, action)).toBe(command);
    }
  });

  it("finds nothing for an unknown noun or action, a noun alone, or Object's own names", () => {
    expect(findCommand("bogus", "list")).toBeUndefined();
    expect(findCommand("jobs", "bogus")).toBeUndefined();
    expect(findCommand("jobs", undefined)).toBeUndefined();
    expect(findCommand("jobs", "constructor")).toBeUndefined();
    expect(findCommand("jobs", "hasOwnProperty")).toBeUndefined();
    expect(findCommand("constructor", "name")).toBeUndefined();
  });
});

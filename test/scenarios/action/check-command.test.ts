import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { lastUserText, steps } from "../../helpers/fake-model.js";

let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness("mintlify", steps({ text: "unused" }));
});
afterAll(() => h.close());

/** The docs' own check, as a team would write it: here, the quickstart must name the Node version. */
const CHECK = `grep -q "Node 20" quickstart.mdx || { echo "quickstart.mdx:3: the quickstart must say Node 20" >&2; exit 1; }`;

describe("check-command: the project's own check in the gate", () => {
  it("a change the gate accepts but the project's check refuses goes back to the agent, is repaired, and only then pushed", async () => {
    h.model.setScript((request) => {
      const repairing = lastUserText(request).startsWith("Validation found");
      if (request.messages.at(-1)?.role === "tool") return { text: repairing ? "State Node 20 in the quickstart" : "State the Node requirement" };
      const replace = repairing ? "Run `npm install -g acme` (Node 20 or later)." : "Run `npm install -g acme` (a recent Node).";
      const find = repairing ? "Run `npm install -g acme` (a recent Node)." : "Run `npm install -g acme`.";
      return { tools: [{ name: "edit_file", args: { path: "quickstart.mdx", find, replace, reason: "Node requirement." } }] };
    });
    const dispatched = await h.createJob("Say which Node version the CLI needs");
    const outcome = await h.run(dispatched, { inputs: { "check-command": CHECK } });

    expect(outcome.status).toBe("completed");
    const feedback = h.model.requests.map(lastUserText).find((text) => text.startsWith("Validation found"));
    expect(feedback).toContain("- quickstart.mdx:3: the quickstart must say Node 20");
    expect(feedback).toContain(`check-command \`${CHECK}\` failed (exit 1)`);
    expect(git(h.remote, "show", `inkwell/${dispatched.jobId}:quickstart.mdx`)).toContain("(Node 20 or later)");
    const [report] = await h.reports(dispatched.jobId);
    expect(report?.validation).toEqual({ passed: true, problems: [] });
    expect(outcome.logs.join("\n")).toMatch(/check-command failed after \d+ s\.[\s\S]*check-command passed in \d+ s\./);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { INPUT_DEFAULTS } from "../../../src/action/inputs.js";
import { RUN_NAME_PATTERN } from "../../../src/app/forges/github/event-task.js";
import { DISPATCH_EVENT_TYPE } from "../../../src/app/forges/github/dispatcher.js";

const workflow = parse(readFileSync(new URL("../../../examples/inkwell-workflow.yml", import.meta.url), "utf8"));

describe("the workflow users add to their docs repository", () => {
  it("runs on Inkwell's repository_dispatch event", () => {
    expect(workflow.on.repository_dispatch.types).toEqual([DISPATCH_EVENT_TYPE]);
  });

  it("may request an OIDC token and nothing it does not need", () => {
    expect(workflow.permissions).toEqual({ contents: "read", "id-token": "write" });
  });

  it("names runs so a run that dies before reporting can be matched to its job", () => {
    const title = String(workflow["run-name"]).replace("${{ github.event.client_payload.job_id }}", "abc123").replace("${{ github.event.client_payload.run_attempt }}", "2");
    expect(RUN_NAME_PATTERN.exec(title)?.slice(1)).toEqual(["abc123", "2"]);
  });

  it("one run per job at a time", () => {
    expect(workflow.concurrency.group).toContain("client_payload.job_id");
  });

  it("uses the Action with only inputs action.yml declares, and leaves no workflow token in the checkout", () => {
    const action = parse(readFileSync(new URL("../../../action.yml", import.meta.url), "utf8"));
    const steps = workflow.jobs.agent.steps as Array<{ uses: string; with?: Record<string, unknown> }>;
    const checkout = steps.find((step) => step.uses.startsWith("actions/checkout"));
    expect(checkout?.with?.["persist-credentials"]).toBe(false);
    const inkwell = steps.at(-1);
    expect(Object.keys(inkwell?.with ?? {}).filter((name) => !(name in action.inputs))).toEqual([]);
    // action.yml declares exactly the inputs the Action reads, with the same defaults.
    expect(Object.keys(action.inputs).sort()).toEqual(Object.keys(INPUT_DEFAULTS).sort());
    for (const [name, input] of Object.entries(action.inputs as Record<string, { default?: string }>)) expect(input.default ?? "", name).toBe(INPUT_DEFAULTS[name as keyof typeof INPUT_DEFAULTS]);
  });
});

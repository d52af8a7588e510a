import { describe, expect, it } from "vitest";
import { automationsBody, type AutomationsView } from "../../../../../src/app/dashboard/automations/page.js";
import { parseOptions } from "../../../../../src/cli/options.js";

const view = {
  session: {},
  project: { id: "p7k2" },
  access: { canAdmin: false, canWrite: false },
  automations: [],
  suggestions: { missing: [], mostRead: [] },
  outcomes: new Map(),
  idempotencyKey: () => "k",
} as unknown as AutomationsView;

describe("automationsBody", () => {
  it("shows a create command for an empty project that the CLI takes as written, for this project", () => {
    const command = /<code>(inkwell automations create [^<]*)<\/code>/.exec(automationsBody(view).value)?.[1];
    expect(command).toBeDefined();
    const { values, positionals } = parseOptions((command as string).split(" ").slice(1));
    expect(positionals).toEqual(["automations", "create"]);
    expect(values).toMatchObject({ project: "p7k2", source: "acme/api", label: "docs" });
  });
});

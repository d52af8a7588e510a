import { describe, expect, it } from "vitest";
import { automationsBody, type AutomationsView } from "../../../../../src/app/dashboard/automations/page.js";
import { parseOptions } from "../../../../../src/cli/options.js";

const view = {
  session: {},
  project: { id: "p7k2" },
  access: { canAdmin: false, canWrite: false },
  automations: [],
  suggestions: { missing: [], mostRead: [], robots: [] },
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

  it("offers a robots.txt suggestion as a job that edits robots.txt, labelled by what it found", () => {
    const robots = { kind: "robots" as const, path: "/robots.txt", detail: "GPTBot fetched 9 disallowed pages (/private)", prompt: "Add a group" };
    const body = automationsBody({ ...view, access: { canAdmin: false, canWrite: true }, session: { csrf: "c" }, suggestions: { missing: [], mostRead: [], robots: [robots] } } as unknown as AutomationsView).value;
    const table = /<table id="suggestions-robots">[\s\S]*?<\/table>/.exec(body)?.[0] ?? "";
    expect(table).toContain("<summary>Edit robots.txt</summary>");
    expect(table).toContain(`aria-label="Instruction for ${robots.detail}"`);
    expect(table).toContain(">Add a group</textarea>");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { lastUserText, steps, type ChatRequest } from "../../helpers/fake-model.js";

let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness("docusaurus", steps({ text: "unused" }));
});
afterAll(() => h.close());

describe("a docs team on a Docusaurus site", () => {
  it("asks for an edit to an existing page: one file changes and the PR says why", async () => {
    h.model.setScript(
      steps(
        { tools: [{ name: "search_text", args: { pattern: "npm update", glob: "docs/**/*.md" } }] },
        { tools: [{ name: "read_file", args: { path: "docs/guides/install.md", startLine: 11, endLine: 13 } }] },
        { tools: [{ name: "edit_file", args: { path: "docs/guides/install.md", find: "Run `npm update acme`.", replace: "Run `npm update acme`, then `acme migrate`.", reason: "Upgrades now need a migration step." } }] },
        { text: "Mention acme migrate when upgrading\n\nThe upgrade section now lists the migration step." },
      ),
    );
    const dispatched = await h.createJob("Upgrading needs `acme migrate` after the update");
    const outcome = await h.run(dispatched);

    expect(outcome.status).toBe("completed");
    expect(outcome.logs).toContain("Docs: docusaurus in docs, navigation in sidebars.js.");
    const branch = `inkwell/${dispatched.jobId}`;
    expect(git(h.remote, "diff", "--name-only", `main..${branch}`)).toBe("docs/guides/install.md");
    expect(git(h.remote, "show", `${branch}:docs/guides/install.md`)).toContain("Run `npm update acme`, then `acme migrate`.");
    const pr = h.github.pulls.find((p) => p.head === branch);
    expect(pr).toMatchObject({ title: "Mention acme migrate when upgrading", draft: false });
    expect(pr?.body).toContain("- `docs/guides/install.md` (modified): Upgrades now need a migration step.");
    // The search found the line, and the ranged read returned only the lines asked for.
    const [, second, third] = h.model.requests as ChatRequest[];
    expect(JSON.stringify(second?.messages.at(-1))).toContain("docs/guides/install.md:13: Run `npm update acme`.");
    expect(JSON.stringify(third?.messages.at(-1))).toContain("## Upgrading");
    expect(JSON.stringify(third?.messages.at(-1))).not.toContain("## With npm");
  });

  it("adds a page: the gate catches a dead link, a missing anchor and the missing sidebar entry, and the agent fixes them", async () => {
    const draft = "---\ntitle: Deploy\n---\n\n# Deploy\n\nInstall first ([with npm](./install.md#with-npm)), see [config](./config.md).\n";
    const fixed = "---\ntitle: Deploy\n---\n\n# Deploy\n\nInstall first ([with npm](./install.md#npm)).\n";
    h.model.setScript((request) => {
      const feedback = lastUserText(request).startsWith("Validation found");
      const afterTool = request.messages.at(-1)?.role === "tool";
      if (!feedback) return afterTool ? { text: "Add a deploy guide" } : { tools: [{ name: "write_file", args: { path: "docs/guides/deploy.md", content: draft, reason: "New deploy guide." } }] };
      if (afterTool) return { text: "Add a deploy guide\n\nNew page, in the Guides sidebar." };
      return {
        tools: [
          { name: "write_file", args: { path: "docs/guides/deploy.md", content: fixed, reason: "Fixes the links the gate reported." } },
          { name: "edit_file", args: { path: "sidebars.js", find: 'items: ["guides/install"]', replace: 'items: ["guides/install", "guides/deploy"]', reason: "Lists the deploy guide under Guides." } },
        ],
      };
    });
    const dispatched = await h.createJob("Write a deploy guide");
    const outcome = await h.run(dispatched);

    expect(outcome.status).toBe("completed");
    const feedback = lastUserText(h.model.requests.find((r) => lastUserText(r).startsWith("Validation found")) as ChatRequest);
    expect(feedback).toContain("docs/guides/deploy.md:7: link './install.md#with-npm': docs/guides/install.md has no heading with the anchor #with-npm");
    expect(feedback).toContain("docs/guides/deploy.md:7: link './config.md' does not resolve to a file in the repository");
    expect(feedback).toContain("docs/guides/deploy.md: new page is not in the navigation (sidebars.js): add it there");
    const branch = `inkwell/${dispatched.jobId}`;
    expect(git(h.remote, "show", `${branch}:sidebars.js`)).toContain('"guides/deploy"');
    const pr = h.github.pulls.find((p) => p.head === branch);
    expect(pr?.draft).toBe(false);
    expect(pr?.body).toContain("- `sidebars.js` (modified): Lists the deploy guide under Guides.");
    const [report] = await h.reports(dispatched.jobId);
    expect(report?.validation).toEqual({ passed: true, problems: [] });
    // The new page's route: the docs plugin's base (docs) and its path without the extension.
    expect(report?.files).toEqual(expect.arrayContaining([{ path: "docs/guides/deploy.md", change: "added", page: "/docs/guides/deploy" }, { path: "sidebars.js", change: "modified" }]));
  });
});

import { describe, expect, it } from "vitest";
import { annotationsOf, publishCheckRun } from "../../../../src/action/github/check-run.js";

describe("the validation as a check run", () => {
  it("annotates each problem at its file and line; file-level problems at line 1; problems outside the commit go in the summary only", () => {
    const validation = { passed: false, problems: ["docs/a.mdx:12: links to '/x', which does not exist", "docs/b.mdx: frontmatter has no title", "the navigation names a missing page", "gone.mdx:3: stale"] };
    expect(annotationsOf(validation, new Set(["docs/a.mdx", "docs/b.mdx"]))).toEqual([
      { path: "docs/a.mdx", start_line: 12, end_line: 12, annotation_level: "failure", title: "Inkwell validation", message: "links to '/x', which does not exist" },
      { path: "docs/b.mdx", start_line: 1, end_line: 1, annotation_level: "failure", title: "Inkwell validation", message: "frontmatter has no title" },
    ]);
  });

  it("sends 50 annotations per request, the rest by updating the run", async () => {
    const sent: Array<{ kind: string; annotations: number }> = [];
    const octokit = {
      rest: {
        checks: {
          create: async (params: { output: { annotations: unknown[] } }) => (sent.push({ kind: "create", annotations: params.output.annotations.length }), { data: { id: 7, html_url: "https://github.com/acme/docs/runs/7" } }),
          update: async (params: { output: { annotations: unknown[] } }) => (sent.push({ kind: "update", annotations: params.output.annotations.length }), { data: {} }),
        },
      },
    };
    const problems = Array.from({ length: 120 }, (_, i) => `docs/a.mdx:${i + 1}: problem ${i}`);
    const url = await publishCheckRun(octokit as never, { owner: "acme", repo: "docs", headSha: "abc", validation: { passed: false, problems }, files: new Set(["docs/a.mdx"]) }, () => undefined);
    expect(url).toBe("https://github.com/acme/docs/runs/7");
    expect(sent).toEqual([
      { kind: "create", annotations: 50 },
      { kind: "update", annotations: 50 },
      { kind: "update", annotations: 20 },
    ]);
  });
});

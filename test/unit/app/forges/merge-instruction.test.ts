import { describe, expect, it } from "vitest";
import { mergeInstruction, touchesPaths } from "../../../../src/app/forges/merge-instruction.js";
import type { SourceMergedEvent } from "../../../../src/app/forges/github/automation-events.js";

const merge: SourceMergedEvent = {
  type: "source_merged",
  repo: "acme/api",
  installationId: 7,
  number: 12,
  title: "Add --dry-run",
  body: "Adds a flag.\n<!-- hidden -->",
  url: "https://github.com/acme/api/pull/12",
  mergeSha: "b".repeat(40),
  baseRef: "main",
  defaultBranch: "main",
  labels: ["docs"],
  author: "octocat",
  authorIsBot: false,
};
const file = (path: string, patch: string) => ({ path, status: "modified", additions: 1, deletions: 0, patch });

describe("mergeInstruction", () => {
  it("for a source the run cannot read (a GitLab project), works from the diff, names no reading tool and speaks of a merge request", () => {
    const many = Array.from({ length: 30 }, (_, i) => file(`src/f${i}.ts`, `@@ -1 +1 @@\n-${"a".repeat(400)}\n+b`));
    const text = mergeInstruction(merge, many, undefined, 6_000, { forge: "gitlab", readable: false });
    expect(text).toMatch(/^A merge request opened by @octocat was merged into acme\/api \(main\): !12 "Add --dry-run"/);
    expect(text).toContain("acme/api's code cannot be read from here: work from the description, the changed files and the diff above.");
    expect(text).toMatch(/The diff of \d+ more file\(s\) did not fit \(src\/f/);
    expect(text).not.toMatch(/read_source_file|list_source_files|search_source/);
  });

  it("states what changed: the PR, its description, the files and their diff, and that changing nothing is an answer", () => {
    const text = mergeInstruction(merge, [file("src/cli.ts", "@@ -1 +1 @@\n-a\n+b"), { path: "img.png", status: "added", additions: 0, deletions: 0 }], "Flags are documented in reference/cli.mdx.");
    expect(text).toContain('opened by @octocat was merged into acme/api (main): #12 "Add --dry-run"');
    expect(text).toContain("https://github.com/acme/api/pull/12 (merge commit bbbbbbbbbbbb)");
    expect(text).toContain("- modified src/cli.ts (+1 −0)\n- added img.png (+0 −0)");
    expect(text).toContain("```diff\n--- src/cli.ts\n+++ src/cli.ts\n@@ -1 +1 @@\n-a\n+b\n```");
    expect(text).toContain("change no file and say why");
    expect(text.endsWith("Flags are documented in reference/cli.mdx.")).toBe(true);
  });

  it("fits the prompt limit: whole patches while they fit, then names the files left out", () => {
    const files = Array.from({ length: 30 }, (_, i) => file(`src/f${i}.ts`, `+${"x".repeat(2_000)}`));
    const text = mergeInstruction({ ...merge, body: "y".repeat(50_000) }, files, undefined, 32_000);
    expect(text.length).toBeLessThanOrEqual(32_000);
    expect(text).toMatch(/The diff of \d+ more file\(s\) did not fit: read them with read_source_file \(src\/f\d+\.ts/);
    expect(text).not.toContain("y".repeat(4_001));
  });

  it("stays within the limit with thousands of long paths: the list is cut, saying how many more", () => {
    const files = Array.from({ length: 3_000 }, (_, i) => ({ path: `src/${"deep/".repeat(30)}file-${i}.ts`, status: "renamed", previousPath: `old/${"deep/".repeat(30)}file-${i}.ts`, additions: 1, deletions: 1 }));
    const text = mergeInstruction(merge, files, "Standing.", 32_000);
    expect(text.length).toBeLessThanOrEqual(32_000);
    expect(text).toMatch(/- … and \d+ more files \(list_source_files shows them all\)/);
    expect(text.endsWith("Standing.")).toBe(true);
  });
});

describe("touchesPaths", () => {
  it("matches changed files (and a rename's old path) against the globs; no globs match everything", () => {
    const files = [file("src/api/routes.ts", ""), { path: "lib/new.ts", previousPath: "src/cli/old.ts", status: "renamed", additions: 0, deletions: 0 }];
    expect(touchesPaths(files, undefined)).toBe(true);
    expect(touchesPaths(files, ["src/api/**"])).toBe(true);
    expect(touchesPaths(files, ["src/cli/**"])).toBe(true);
    expect(touchesPaths(files, ["docs/**", "*.md"])).toBe(false);
  });
});

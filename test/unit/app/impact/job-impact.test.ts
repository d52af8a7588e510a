import { describe, expect, it } from "vitest";
import { changedPages } from "../../../../src/app/impact/job-impact.js";
import { firstWindowEnd, impactWindows } from "../../../../src/app/domain/jobs/impact-windows.js";

describe("a PR's changed pages", () => {
  it("keeps added, modified, moved and deleted pages at their site paths; the rest are other files", () => {
    expect(
      changedPages([
        { path: "docs/b.mdx", change: "modified", page: "/b" },
        { path: "docs/a.mdx", change: "added", page: "/a" },
        { path: "docs/c.mdx", change: "renamed", from: "docs/old-c.mdx", page: "/c", fromPage: "/old-c" },
        { path: "docs/d.mdx", change: "renamed", from: "docs/dd.mdx", page: "/d", fromPage: "/d" },
        { path: "docs/b.md", change: "added", page: "/b" },
        { path: "docs/gone.mdx", change: "deleted", fromPage: "/gone" },
        { path: "docs/older.mdx", change: "deleted" },
        { path: "docs/e.md", change: "deleted", fromPage: "/e" },
        { path: "docs/e.mdx", change: "added", page: "/e" },
        { path: "docs.json", change: "modified" },
      ]),
    ).toEqual({
      pages: [
        { path: "/a", change: "added", files: ["docs/a.mdx"] },
        { path: "/b", change: "modified", files: ["docs/b.mdx", "docs/b.md"] },
        { path: "/c", fromPath: "/old-c", change: "renamed", files: ["docs/c.mdx"] },
        // A file renamed where the site keeps its path (a slug in its frontmatter) is the same page, modified.
        { path: "/d", change: "modified", files: ["docs/d.mdx"] },
        // A page whose file was replaced by another serving the same path is the same page, modified.
        { path: "/e", change: "modified", files: ["docs/e.md", "docs/e.mdx"] },
        { path: "/gone", change: "deleted", files: ["docs/gone.mdx"] },
      ],
      // A deleted page reported without its path (by an older runner) is only a file.
      otherFiles: ["docs/older.mdx", "docs.json"],
    });
  });
});

describe("the windows around a merge", () => {
  it("leave the merge day out, count ended days only, and say when they are complete", () => {
    const [seven, fourteen, twentyEight] = impactWindows(100, 110);
    expect(seven).toEqual({ days: 7, before: { from: 93, to: 100 }, after: { from: 101, to: 108, counted: { from: 101, to: 108 }, complete: true } });
    expect(fourteen?.after).toEqual({ from: 101, to: 115, counted: { from: 101, to: 110 }, complete: false });
    expect(twentyEight?.before).toEqual({ from: 72, to: 100 });
    expect(impactWindows(100, 100)[0]?.after.counted).toEqual({ from: 101, to: 101 });
    expect(impactWindows(100, 101)[0]?.after.counted).toEqual({ from: 101, to: 101 });
  });

  it("the first week is over at the start of the eighth day after the merge day", () => {
    expect(firstWindowEnd(new Date("2026-11-02T23:59:00Z")).toISOString()).toBe("2026-11-10T00:00:00.000Z");
  });
});

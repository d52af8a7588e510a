import pino from "pino";
import { describe, expect, it } from "vitest";
import { robotsFileIn, robotsMergeTasks, type MergeReadingForge } from "../../../../src/app/forges/robots-merges.js";
import type { Db } from "../../../../src/app/store/db.js";

const file = (path: string, status = "modified") => ({ path, status, additions: 1, deletions: 0 });

describe("robotsFileIn", () => {
  it("takes the site's robots.txt from the folders a site is served from, the nearest the root first", () => {
    expect(robotsFileIn([file("docs/intro.mdx"), file("static/robots.txt")])).toEqual({ path: "static/robots.txt", removed: false });
    expect(robotsFileIn([file("docs/public/robots.txt"), file("robots.txt", "removed")])).toEqual({ path: "robots.txt", removed: true });
  });

  it("leaves alone an example's, a fixture's or a dependency's robots.txt, and merges without one", () => {
    expect(robotsFileIn([file("examples/next/public/robots.txt", "added"), file("test/fixtures/robots.txt", "removed"), file("node_modules/x/robots.txt")])).toBeNull();
    expect(robotsFileIn([file("docs/intro.mdx")])).toBeNull();
  });
});

describe("the robots_merge task", () => {
  const asked: Array<[string, Record<string, unknown>]> = [];
  const reading = (forge: string): MergeReadingForge => ({
    async readMerge(merge) {
      asked.push([forge, merge]);
      return { skipped: "read" };
    },
  });
  const [task, legacy] = robotsMergeTasks({} as Db, { gitlab: reading("gitlab") }, pino({ level: "silent" }));

  it("hands the merge to the forge its payload names, without the forge; a payload from before the forge was in it is GitHub's, and GitLab's old kind is still GitLab's", async () => {
    expect(task!.kind).toBe("robots_merge");
    expect(await task!.run(task!.payload.parse({ forge: "gitlab", projectId: "p1", iid: 4, mergeSha: "abc" }), 1)).toEqual({ skipped: "read" });
    expect(asked).toEqual([["gitlab", { projectId: "p1", iid: 4, mergeSha: "abc" }]]);
    expect(await task!.run(task!.payload.parse({ repo: "acme/docs", installationId: 1, number: 2, mergeSha: "abc", mergedAt: null }), 1)).toEqual({ skipped: "no GitHub App to read the merge with" });
    expect(legacy!.kind).toBe("gitlab_robots_merge");
    expect(await legacy!.run(legacy!.payload.parse({ projectId: "p2", iid: 5, mergeSha: "def" }), 1)).toEqual({ skipped: "read" });
    expect(asked.at(-1)).toEqual(["gitlab", { projectId: "p2", iid: 5, mergeSha: "def" }]);
  });
});

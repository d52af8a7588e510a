import { describe, expect, it } from "vitest";
import { robotsFileIn } from "../../../../src/app/forges/robots-merges.js";

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

import { describe, expect, it } from "vitest";
import { problemKey, splitByKey } from "../../../../src/action/validation/problem-keys.js";

describe("problemKey", () => {
  it("is the same for a problem an edit above it moved to another line or column", () => {
    expect(problemKey("guide.mdx:5: link '/nowhere' does not resolve to a file in the repository")).toBe(problemKey("guide.mdx:9: link '/nowhere' does not resolve to a file in the repository"));
    expect(problemKey("a.mdx:3:7: link '#x': a.mdx has no heading with the anchor #x")).toBe(problemKey("a.mdx:4:1: link '#x': a.mdx has no heading with the anchor #x"));
  });

  it("differs by page, by link target and by anchor", () => {
    const key = problemKey("guide.mdx:5: link '/nowhere' does not resolve to a file in the repository");
    expect(problemKey("faq.mdx:5: link '/nowhere' does not resolve to a file in the repository")).not.toBe(key);
    expect(problemKey("guide.mdx:5: link '/elsewhere' does not resolve to a file in the repository")).not.toBe(key);
    expect(problemKey("a.mdx:3: link '/b#x': b.mdx has no heading with the anchor #x")).not.toBe(problemKey("a.mdx:3: link '/b#y': b.mdx has no heading with the anchor #y"));
  });

  it("takes a page that does not compile as one problem, whatever the compiler met first", () => {
    expect(problemKey("a.mdx:3:1: does not compile as MDX: Unexpected end of file")).toBe(problemKey("a.mdx:9:4: does not compile as MDX: Could not parse expression"));
    expect(problemKey("a.mdx:3:1: does not compile as MDX: x")).not.toBe(problemKey("b.mdx:3:1: does not compile as MDX: x"));
  });

  it("reads problems without a line (navigation, config) by their file and message", () => {
    expect(problemKey("docs.json: lists 'gone' but there is no such page")).toBe("docs.json\0lists 'gone' but there is no such page");
  });
});

describe("splitByKey", () => {
  it("forgives as many of a problem as the site had; a broken link the run added is new; one it fixed is in neither list", () => {
    const before = ["g.mdx:5: link '/a' does not resolve to a file in the repository", "g.mdx:6: link '/fixed' does not resolve to a file in the repository"];
    const now = [
      "g.mdx:7: link '/a' does not resolve to a file in the repository",
      "g.mdx:9: link '/a' does not resolve to a file in the repository",
      "g.mdx:10: link '/b' does not resolve to a file in the repository",
    ];
    expect(splitByKey(now, before)).toEqual({
      introduced: ["g.mdx:9: link '/a' does not resolve to a file in the repository", "g.mdx:10: link '/b' does not resolve to a file in the repository"],
      kept: ["g.mdx:7: link '/a' does not resolve to a file in the repository"],
    });
  });

  it("takes a key of the caller's for problems that are not text", () => {
    const links = [{ file: "a", link: "/x" }];
    expect(splitByKey(links, [{ file: "a", link: "/x" }], (link) => `${link.file}\0${link.link}`)).toEqual({ introduced: [], kept: links });
  });
});

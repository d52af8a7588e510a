import { describe, expect, it } from "vitest";
import { sectionOfPrefix } from "../../../../../src/app/analytics/rollup/page-sections.js";
import { sectionPaths } from "../../../../../src/app/analytics/rollup/section-paths.js";

describe("sections", () => {
  it("a page's sections are its enclosing folders and itself, two segments deep", () => {
    expect(sectionPaths("/docs/guides/setup")).toEqual(["/docs/", "/docs/guides/"]);
    expect(sectionPaths("/docs/guides")).toEqual(["/docs/", "/docs/guides/"]);
    expect(sectionPaths("/pricing")).toEqual(["/pricing/"]);
    expect(sectionPaths("/")).toEqual([]);
    expect(sectionPaths("/a//b")).toEqual(["/a/"]);
  });

  it("a prefix names its section; / is the site; deeper prefixes name none", () => {
    expect(sectionOfPrefix("/docs")).toBe("/docs/");
    expect(sectionOfPrefix("/docs/guides/")).toBe("/docs/guides/");
    expect(sectionOfPrefix("/")).toBeNull();
    expect(sectionOfPrefix("/a/b/c")).toBeUndefined();
  });
});

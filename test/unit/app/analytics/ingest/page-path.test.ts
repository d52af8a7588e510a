import { describe, expect, it } from "vitest";
import { fetchedPath, normalizePagePath } from "../../../../../src/app/analytics/ingest/page-path.js";
import { URL_PATHS } from "../../../../fixtures/robotstxt-reference.js";

describe("normalizePagePath", () => {
  it("counts a page without its query, fragment and trailing slash, and a full URL as its path", () => {
    expect(["/fish/", "/fish/?id=1", "/fish#top", "https://docs.example.com/fish/?id=1"].map(normalizePagePath)).toEqual(["/fish", "/fish", "/fish", "/fish"]);
    expect(["", "fish", "/a b"].map(normalizePagePath)).toEqual([null, null, null]);
  });
});

describe("fetchedPath: what robots.txt judges", () => {
  it("keeps the path and query as sent, a trailing slash and percent-encoding untouched, the fragment dropped", () => {
    expect(["/fish/", "/fish/?id=1", "/filename.php?parameters", "/a%2Fb/?q=%e3", "https://docs.example.com?x"].map(fetchedPath)).toEqual([
      "/fish/",
      "/fish/?id=1",
      "/filename.php?parameters",
      "/a%2Fb/?q=%e3",
      "/?x",
    ]);
    expect(fetchedPath(`/${"a".repeat(2_048)}`)).toBeNull();
  });

  // google/robotstxt's TestGetPathParamsQuery: the same path for every URL a hit can send; a bare host or relative reference is no hit's path.
  it.each(URL_PATHS)("$url fetches $path", ({ url, path, inkwell }) => {
    expect(fetchedPath(url)).toBe(inkwell === undefined ? path : inkwell);
  });
});

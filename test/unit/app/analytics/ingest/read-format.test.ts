import { describe, expect, it } from "vitest";
import { pageOfMarkdownTwin, readFormat } from "../../../../../src/app/analytics/ingest/read-format.js";

describe("what a view read", () => {
  it.each([
    ["/guide", undefined, "html"],
    ["/guide.md", undefined, "markdown"],
    ["/guide.MDX?ref=x", undefined, "markdown"],
    ["/guide", "text/markdown, text/html;q=0.9", "markdown"],
    ["/guide", "text/html, text/markdown", "html"],
    ["/llms.txt", undefined, "llms.txt"],
    ["/docs/llms-full.txt", "text/markdown", "llms.txt"],
    ["/notes.txt", undefined, "text"],
    ["/openapi.json", undefined, "text"],
    ["/feed.xml", undefined, "text"],
    ["/md", undefined, "html"],
  ] as const)("%s with Accept %s is %s", (path, accept, format) => {
    expect(readFormat(path, accept)).toBe(format);
  });

  it.each([
    ["/guide.md", "/guide"],
    ["/guide.mdx", "/guide"],
    ["/guide/index.md", "/guide"],
    ["/index.md", "/"],
    ["/guide", "/guide"],
    ["/llms.txt", "/llms.txt"],
  ])("%s counts as the page %s", (twin, page) => {
    expect(pageOfMarkdownTwin(twin)).toBe(page);
  });
});

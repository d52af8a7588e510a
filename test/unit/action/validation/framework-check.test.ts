import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DocsProject } from "../../../../src/action/docs/framework.js";
import { brokenLinkProblems, frameworkCheckFor, parseBrokenLinksReport, type FrameworkCheck } from "../../../../src/action/validation/framework-check.js";

const CLEAR = "\u001b[2K\u001b[1A\u001b[2K\u001b[G";

/** Recorded from mint 4.2.941 (`mint broken-links`, 2026-11-24) on a three-page site. */
const MINT_TEST_MODE_OUTPUT = `checking for broken links...\n\n${CLEAR}found 3 broken links in 1 files\n\n${CLEAR}index.mdx\n\n${CLEAR} ├─ /images/x.png\n\n${CLEAR} ├─ /snippets/a\n\n${CLEAR} └─ /Quickstart\n\n`;
const MINT_TERMINAL_OUTPUT = `⠋ checking for broken links...\n${CLEAR}found 3 broken links in 1 files\n\nindex.mdx\n\u00a0⎿\u00a0\u00a0/nope\n\u00a0⎿\u00a0\u00a0./gone\n\u00a0⎿\u00a0\u00a0/also-missing\n\nguides/a.mdx\n\u00a0⎿\u00a0\u00a0/b\n`;

const project = (framework: DocsProject["framework"], navigationFiles: string[]): DocsProject => ({ framework, docsDir: ".", navigationFiles, pageExtensions: [".mdx", ".md"] }) as DocsProject;

describe("parseBrokenLinksReport", () => {
  it("reads mint's plain (CLI_TEST_MODE) report, terminal escapes and all", () => {
    expect(parseBrokenLinksReport(MINT_TEST_MODE_OUTPUT)).toEqual([
      { file: "index.mdx", link: "/images/x.png" },
      { file: "index.mdx", link: "/snippets/a" },
      { file: "index.mdx", link: "/Quickstart" },
    ]);
  });

  it("reads its interactive report too, file by file", () => {
    expect(parseBrokenLinksReport(MINT_TERMINAL_OUTPUT)).toEqual([
      { file: "index.mdx", link: "/nope" },
      { file: "index.mdx", link: "./gone" },
      { file: "index.mdx", link: "/also-missing" },
      { file: "guides/a.mdx", link: "/b" },
    ]);
  });

  it("is null for output that is not a report (an install failure, a crash)", () => {
    expect(parseBrokenLinksReport("npm error code ENOTFOUND\nnpm error network request failed")).toBeNull();
    expect(parseBrokenLinksReport("")).toBeNull();
  });
});

describe("frameworkCheckFor", () => {
  it("is Mintlify's checker, run beside docs.json", () => {
    expect(frameworkCheckFor(project("mintlify", ["docs/docs.json"]))).toMatchObject({ command: "npx --yes mint@4 broken-links", directory: "docs" });
  });

  it("is none for a legacy mint.json (mint would write a docs.json into the workspace) or another framework", () => {
    expect(frameworkCheckFor(project("mintlify", ["mint.json"]))).toBeNull();
    expect(frameworkCheckFor(project("docusaurus", ["sidebars.js"]))).toBeNull();
  });
});

describe("brokenLinkProblems", () => {
  const check: FrameworkCheck = { name: "Mintlify's broken-link checker", command: "mint", directory: "." };
  const root = mkdtempSync(path.join(tmpdir(), "inkwell-broken-links-"));
  writeFileSync(path.join(root, "a.mdx"), "---\ntitle: A\n---\n\nSee [x](/x).\n\nAnd [x again](/x) and <Card href=\"/y\" />.\n");

  it("counts only what the run added: a link broken before stays the repository's, a second copy of it is the run's", async () => {
    const before = { ran: true as const, broken: [{ file: "a.mdx", link: "/x" }] };
    const after = [
      { file: "a.mdx", link: "/x" },
      { file: "a.mdx", link: "/x" },
      { file: "a.mdx", link: "/y" },
    ];
    expect(await brokenLinkProblems(check, after, before, [], root)).toEqual([
      "a.mdx:5: link '/x' is broken (Mintlify's broken-link checker, `mint broken-links`)",
      "a.mdx:7: link '/y' is broken (Mintlify's broken-link checker, `mint broken-links`)",
    ]);
  });

  it("without a run before the edit, blames only the files the run changed", async () => {
    const after = [
      { file: "a.mdx", link: "/y" },
      { file: "b.mdx", link: "/z" },
    ];
    expect(await brokenLinkProblems(check, after, { ran: false, why: "offline" }, ["a.mdx"], root)).toEqual(["a.mdx:7: link '/y' is broken (Mintlify's broken-link checker, `mint broken-links`)"]);
  });
});

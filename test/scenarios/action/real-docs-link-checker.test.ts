import { execFileSync } from "node:child_process";
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { linkCheckerPlace, prepareLinkChecker, vendoredLockDir } from "../../../src/action/validation/link-checker.js";
import { incrementalLinkGraph, loadGraphParts } from "../../../src/action/validation/mintlify-link-graph.js";

/**
 * The pinned `@mintlify/link-rot` (installed from its lockfile, as the Action does) on a real
 * Mintlify site of bench/real-docs (Mintlify's help-center template: products navigation, folder
 * index pages, .mintignore), with a page of broken links, anchors and snippet imports added: the
 * graph kept between rounds answers as the package's own `buildGraph`, and a round re-reads only
 * the page the agent wrote.
 */
const SITE = "mintlify-help-center";
const TOOL_ROOT = path.join(tmpdir(), "inkwell-real-docs-tools");
const key = (link: { relativeDir: string; filename: string; originalPath: string }) => `${path.posix.join(link.relativeDir, link.filename)} → ${link.originalPath}`;

describe("Mintlify's link checker, a round at a time", () => {
  it("finds what buildGraph finds on a real site, then re-reads only the edited page and finds the links it broke", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "inkwell-real-site-"));
    execFileSync("tar", ["-xzf", path.resolve("bench", "real-docs", "corpus.tar.gz"), "-C", dir, `${SITE}/`]);
    const siteRoot = path.join(dir, SITE);
    writeFileSync(
      path.join(siteRoot, "inkwell-seeded.mdx"),
      '---\ntitle: Seeded\n---\nimport Gone from "/snippets/inkwell-gone.mdx"\n\n## Déjà `vu`: here\n\n[gone](/inkwell/gone) [bad anchor](/index#inkwell-no-such-heading) [own heading](#déjà-vu-here) [home](/index)\n',
    );
    const quiet = { info: () => undefined, warning: () => undefined };
    await prepareLinkChecker({ toolRoot: TOOL_ROOT, archive: null, env: process.env, timeoutMs: 10 * 60_000, log: quiet });
    const packageDir = path.join(linkCheckerPlace(TOOL_ROOT, vendoredLockDir() as string).directory, "node_modules", "@mintlify", "link-rot");
    const engine = (await import(path.join(packageDir, "dist", "index.js"))) as { buildGraph(root: string, options: object): Promise<{ precomputeFileResolutions(): void; getBrokenInternalLinks(options: object): Parameters<typeof key>[0][] }> };
    const parts = await loadGraphParts(packageDir);
    expect(parts).not.toBeNull();
    const warnings: string[] = [];
    const graph = incrementalLinkGraph(parts as NonNullable<typeof parts>, (message) => warnings.push(message));

    const whole = await engine.buildGraph(siteRoot, { checkSnippets: true });
    whole.precomputeFileResolutions();
    const expected = whole.getBrokenInternalLinks({ checkAnchors: true }).map(key).sort();
    await graph.warm(siteRoot);
    const pages = graph.parsed;
    expect(pages).toBeGreaterThan(60);
    expect(expected).toEqual(expect.arrayContaining(["inkwell-seeded.mdx → /inkwell/gone", "inkwell-seeded.mdx → /index#inkwell-no-such-heading", "inkwell-seeded.mdx → /snippets/inkwell-gone.mdx"]));
    expect((await graph.brokenLinks(siteRoot)).map(key).sort()).toEqual(expected);
    expect(graph.parsed).toBe(pages);

    appendFileSync(path.join(siteRoot, "index.mdx"), "\n\nSee [the gone page](/inkwell-no-such-page) and [a heading](/index#inkwell-no-such-heading).\n");
    const after = (await graph.brokenLinks(siteRoot)).map(key).sort();
    expect(graph.parsed).toBe(pages + 1);
    expect(after).toEqual([...expected, "index.mdx → /inkwell-no-such-page", "index.mdx → /index#inkwell-no-such-heading"].sort());
    expect(warnings).toEqual([]);
  });
});

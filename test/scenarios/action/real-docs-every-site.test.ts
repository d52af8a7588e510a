import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigationPages } from "../../../src/action/docs/framework.js";
import { siteModel, vitepressBases, vitepressUrl } from "../../../src/action/docs/site-model.js";
import { configPromises } from "../../../src/action/validation/config-keeps.js";
import { checkout, git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { lastUserText, steps, type ChatRequest } from "../../helpers/fake-model.js";
import { corpusSources, extractSite, navigationEdit, planSite, type SitePlan } from "../../helpers/real-site-plan.js";

/**
 * Every site of bench/real-docs (13 public docs repositories at pinned commits: Mintlify, Docusaurus,
 * MkDocs, VitePress), through the real Action code path with a scripted model: a new page listed and
 * linked as a writer would, with links to headings copied from the site's own pages, passes without
 * a repair round; a move keeps the site's redirects and navigation and changes its config by the
 * lines it needs; a broken link, a bad anchor and a missing import are caught. What each site's
 * agent does is chosen from the site (test/helpers/real-site-plan.ts), not written per site.
 */
const stem = (file: string) => file.replace(/\.mdx?$/, "");
const validationRounds = (h: ActionHarness) => h.model.requests.filter((request) => lastUserText(request as ChatRequest).startsWith("Validation found")).length;
const lastFeedback = (h: ActionHarness) => h.model.requests.map((request) => lastUserText(request as ChatRequest)).filter((text) => text.startsWith("Validation found")).at(-1) ?? "";

/** Each framework's way to pull another file into a page. */
const missingImport: Record<string, (page: string) => string> = {
  mintlify: () => 'import Missing from "/snippets/inkwell-missing.mdx"\n\n<Missing />',
  docusaurus: () => 'import Missing from "./_inkwell-missing.mdx";\n\n<Missing />',
  mkdocs: () => '--8<-- "inkwell-missing.md"',
  vitepress: () => "<!--@include: ./inkwell-missing.md-->",
};

describe.each(corpusSources().map((source) => [source.name, source] as const))("the agent on %s", (name) => {
  let h: ActionHarness;
  let siteDir: string;
  let plan: SitePlan;
  beforeAll(async () => {
    siteDir = extractSite(name);
    plan = await planSite(siteDir);
    h = await startActionHarness({ name, dir: siteDir }, steps({ text: "unused" }));
  });
  afterAll(() => h?.close());

  it("adds a page listed beside another, linked from it, with links to the site's headings: no repair round", async () => {
    const { newPage, neighbour, headingLinks, linkToNewPage } = plan;
    expect(headingLinks.length, "the site's pages link to headings of other pages").toBeGreaterThan(0);
    const lastLine = readFileSync(path.join(siteDir, neighbour), "utf8").trimEnd().split("\n").at(-1) as string;
    const listing = navigationEdit(plan);
    const links = headingLinks.map((link, i) => `- [heading ${i + 1}](${link})`).join("\n");
    h.model.setScript(
      steps(
        {
          tools: [
            { name: "write_file", args: { path: newPage, content: `---\ntitle: A new page\n---\n\nRead these first:\n\n${links}\n`, reason: "The page the team asked for." } },
            ...(listing ? [{ name: "edit_file", args: { ...listing, reason: "Lists the new page." } }] : []),
            { name: "edit_file", args: { path: neighbour, find: lastLine, replace: `${lastLine}\n\nSee also [a new page](${linkToNewPage}).`, reason: "Links the new page." } },
          ],
        },
        { text: "Add a page\n\nAdded it, listed it and linked it." },
      ),
    );
    const rounds = validationRounds(h);
    const outcome = await h.run(await h.createJob("Add a page"));
    expect(outcome.error ?? outcome.status).toBe("completed");
    expect(validationRounds(h), lastFeedback(h)).toBe(rounds);
  });

  it("moves a page: every redirect and navigation entry kept, one redirect more where the site has them, config changed by the lines it needs", async () => {
    const { move, project } = plan;
    expect(move, "a listed page nobody links to").not.toBeNull();
    const { from, to } = move as NonNullable<typeof move>;
    const before = configPromises(siteDir, project);
    h.model.setScript(steps({ tools: [{ name: "move_file", args: { from, to, reason: "A clearer name." } }] }, { text: "Rename a page\n\nMoved it." }));
    const rounds = validationRounds(h);
    const dispatched = await h.createJob(`Move ${from} to ${to}`);
    const outcome = await h.run(dispatched);
    expect(outcome.error ?? outcome.status).toBe("completed");
    expect(validationRounds(h), lastFeedback(h)).toBe(rounds);

    const branch = `inkwell/${dispatched.jobId}`;
    const [oldName, newName] = [path.posix.basename(stem(from)), path.posix.basename(stem(to))];
    const after = checkout(h.remote);
    git(after, "checkout", "-q", branch);
    const kept = configPromises(after, project);
    expect(kept.redirectSources).toEqual(expect.arrayContaining(before.redirectSources));
    const hasRedirects = before.redirectSources.length > 0 || (project.framework === "mintlify" && siteModel(siteDir, project).mintlify !== null);
    expect(kept.redirectSources.length).toBe(before.redirectSources.length + (hasRedirects ? 1 : 0));
    const listedAfter = new Set((navigationPages(after, project) ?? []).map(stem));
    for (const page of navigationPages(siteDir, project) ?? []) expect(listedAfter.has(stem(page) === stem(from) ? stem(to) : stem(page)), `${page} is still listed`).toBe(true);

    if (project.framework === "vitepress") {
      // Its navigation is code: no `link:` may still lead to the old URL (absolutely, or under its file's `base:`).
      const model = siteModel(siteDir, project);
      const oldUrl = vitepressUrl(model, from);
      const configs = git(after, "ls-files", "*.ts", "*.mts", "*.js", "*.mjs").split("\n").filter((file) => file && !file.includes("node_modules"));
      const stale = configs.flatMap((file) => {
        const text = readFileSync(path.join(after, file), "utf8");
        const bases = ["", ...vitepressBases(text).filter((base) => base.startsWith("/"))];
        const links = [...text.matchAll(/\blink\s*:\s*['"`]([^'"`]+)['"`]/g)].map((match) => match[1] as string);
        return links.filter((link) => bases.some((base) => (link.startsWith("/") ? link : `${base}${link}`).replace(/\.(md|html)$/, "") === oldUrl)).map((link) => `${file}: ${link}`);
      });
      expect(stale).toEqual([]);
    }
    const changed = git(h.remote, "diff", "--name-only", "--no-renames", `main..${branch}`).split("\n").filter(Boolean);
    const configs = changed.filter((file) => file !== from && file !== to);
    for (const config of configs) {
      const diff = git(h.remote, "diff", "--unified=0", `main..${branch}`, "--", config).split("\n");
      const removed = diff.filter((line) => /^-(?!--)/.test(line)).map((line) => line.slice(1));
      const added = diff.filter((line) => /^\+(?!\+\+)/.test(line)).map((line) => line.slice(1));
      expect(removed.every((line) => line.includes(oldName) || /^[\s{}[\],]*$/.test(line)), `${config} removed only the moved page's lines:\n${removed.join("\n")}`).toBe(true);
      const renames = removed.map((line) => line.replaceAll(oldName, newName));
      const extra = added.filter((line) => !renames.includes(line));
      // A redirect's lines: its entry, and the list that holds it where the site had none.
      const redirectLine = (line: string) => line.includes(oldName) || line.includes(newName) || /^[\s{}[\],]*$/.test(line) || /^\s*"?redirect(s|_maps)?"?\s*:\s*[[{]?\s*$/.test(line);
      expect(extra.every(redirectLine), `${config} added only a redirect:\n${extra.join("\n")}`).toBe(true);
      expect(extra.length, `${config}: ${extra.join("\n")}`).toBeLessThanOrEqual(8);
    }
  });

  it("catches a broken link, a bad anchor and an import of a missing file in a new page", async () => {
    const { newPage, neighbour, project, linkToNewPage } = plan;
    const checkPage = newPage.replace("inkwell-new-page", "inkwell-check");
    const neighbourLink = project.framework === "mintlify" ? linkToNewPage.replace("inkwell-new-page", path.posix.basename(neighbour).replace(/\.mdx?$/, "")) : `./${path.posix.basename(neighbour)}`;
    h.model.setScript((request) => {
      const afterTool = request.messages.at(-1)?.role === "tool";
      if (lastUserText(request).startsWith("Validation found")) return afterTool ? { text: "Dropped the page\n\nIt linked to nothing real." } : { tools: [{ name: "delete_file", args: { path: checkPage, reason: "Its links were wrong." } }] };
      if (afterTool) return { text: "Add a page\n\nAdded." };
      const content = `---\ntitle: Check\n---\n\n${(missingImport[project.framework] as (page: string) => string)(checkPage)}\n\n[gone](./inkwell-no-such-page.md) and [anchor](${neighbourLink}#inkwell-no-such-heading).\n`;
      return { tools: [{ name: "write_file", args: { path: checkPage, content, reason: "A page." } }] };
    });
    const rounds = validationRounds(h);
    const outcome = await h.run(await h.createJob("Add a check page"));
    expect(outcome.error ?? outcome.status).toBe("completed");
    expect(validationRounds(h)).toBeGreaterThan(rounds);
    const problems = lastFeedback(h).split("\n").filter((line) => line.includes(checkPage));
    expect(problems.some((line) => line.includes("inkwell-missing")), problems.join("\n")).toBe(true);
    // Where Mintlify generates pages from OpenAPI specs, an unknown path is its own checker's to judge (framework-check).
    if (!siteModel(siteDir, project).mintlify?.openapi) expect(problems.some((line) => line.includes("inkwell-no-such-page")), problems.join("\n")).toBe(true);
    // Every site's anchors are checked (an MkDocs site with hooks too), but where the site's own
    // Markdown plugins read the page first (Docusaurus remarkPlugins: jest), whose ids are the build's.
    const rewritten = siteModel(siteDir, project).headingsRewritten(neighbour);
    expect(problems.some((line) => line.includes("#inkwell-no-such-heading")), problems.join("\n")).toBe(!rewritten);
  });
});

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMintlifyConfig } from "../../../src/action/docs/mintlify-docs-json.js";
import { git, startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { lastUserText, steps, type ChatRequest } from "../../helpers/fake-model.js";

/**
 * The agent on real sites: Mintlify's own docs (bench/real-docs: mintlify/docs at a pinned commit, 1,116 pages,
 * its 350 redirects behind `"redirects": {"$ref": "./redirects.json"}`, French, Spanish and Chinese
 * navigation in $ref'd files) and MkDocs' own (redirects plugin, nav in mkdocs.yml), through the
 * real Action code path with a scripted model.
 */
const CORPUS = path.resolve("bench", "real-docs", "corpus.tar.gz");
const SITE = "mintlify-docs";

function extractSite(site: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "inkwell-real-site-"));
  execFileSync("tar", ["-xzf", CORPUS, "-C", dir, `${site}/`]);
  return path.join(dir, site);
}

let h: ActionHarness;
let siteDir: string;
beforeAll(async () => {
  siteDir = extractSite(SITE);
  h = await startActionHarness({ name: SITE, dir: siteDir }, steps({ text: "unused" }));
});
afterAll(() => h.close());

/** A page docs.json itself lists exactly once, named nowhere else in the config, with its file. */
function navigationPage(skip: string[] = []): string {
  const config = readMintlifyConfig(siteDir, "docs.json");
  const texts = config.files.map((file) => readFileSync(path.join(siteDir, file), "utf8")).join("\n");
  const entry = config.navigation.find(
    (candidate) => candidate.at.file === "docs.json" && typeof candidate.at.path.at(-1) === "number" && !skip.includes(candidate.page) && texts.split(`"${candidate.page}"`).length === 2 && existsSync(path.join(siteDir, `${candidate.page}.mdx`)) && candidate.page.includes("/"),
  );
  if (!entry) throw new Error("no page listed once in docs.json");
  return entry.page;
}

const validationRounds = () => h.model.requests.filter((request) => lastUserText(request as ChatRequest).startsWith("Validation found")).length;
/** The last validation feedback, for a failing assertion's message. */
const feedback = () => h.model.requests.map((request) => lastUserText(request as ChatRequest)).filter((text) => text.startsWith("Validation found")).at(-1) ?? "";
const numstat = (branch: string, file: string) => git(h.remote, "diff", "--numstat", `main..${branch}`, "--", file).split(/\s+/).slice(0, 2).map(Number);

describe("the agent on Mintlify's own docs", () => {
  it("moves a page: the 350 redirects stay behind their $ref, one is appended, and docs.json changes by the one renamed line", async () => {
    const page = navigationPage();
    const moved = `${path.posix.dirname(page)}/moved-${path.posix.basename(page)}`;
    const redirectsBefore = JSON.parse(readFileSync(path.join(siteDir, "redirects.json"), "utf8")) as unknown[];
    expect(redirectsBefore.length).toBeGreaterThan(300);
    h.model.setScript(steps({ tools: [{ name: "move_file", args: { from: `${page}.mdx`, to: `${moved}.mdx`, reason: "A clearer place for it." } }] }, { text: "Move a page\n\nMoved it; its old URL redirects." }));
    const roundsBefore = validationRounds();
    const dispatched = await h.createJob(`Move ${page} to ${moved}`);
    const outcome = await h.run(dispatched);

    expect(outcome.error ?? outcome.status).toBe("completed");
    expect(validationRounds(), feedback()).toBe(roundsBefore);
    const branch = `inkwell/${dispatched.jobId}`;
    const docsJson = git(h.remote, "show", `${branch}:docs.json`);
    expect(docsJson).toMatch(/"redirects":\s*\{\s*"\$ref":\s*"\.\/redirects\.json"\s*\}/);
    expect(numstat(branch, "docs.json")).toEqual([1, 1]);
    expect(JSON.parse(git(h.remote, "show", `${branch}:redirects.json`))).toEqual([...redirectsBefore, { source: `/${page}`.replace(/\/index$/, ""), destination: `/${moved}` }]);
    const [added, removed] = numstat(branch, "redirects.json");
    expect(removed).toBeLessThanOrEqual(1);
    expect(added).toBeLessThanOrEqual(5);
    expect(git(h.remote, "diff", "--name-only", "--no-renames", `main..${branch}`).split("\n").sort()).toEqual(["docs.json", `${moved}.mdx`, `${page}.mdx`, "redirects.json"].sort());
  });

  it("adds a page linked from an existing one, with a link to a heading of the site's (punctuation and code in it): no repair round", async () => {
    const page = navigationPage();
    const folder = path.posix.dirname(page);
    // A heading of the site with punctuation or code, and the anchor the site's own writers link it by.
    const linked = execFileSync("grep", ["-rhoE", "\\]\\(/[a-z0-9/-]+#[a-z0-9-]+\\)", "--include=*.mdx", "."], { cwd: siteDir, encoding: "utf8" }).split("\n").filter(Boolean);
    const target = linked.map((link) => link.slice(2, -1)).find((link) => {
      const [file, anchor] = link.slice(1).split("#") as [string, string];
      const text = existsSync(path.join(siteDir, `${file}.mdx`)) ? readFileSync(path.join(siteDir, `${file}.mdx`), "utf8") : "";
      return anchor.includes("-") && text.split("\n").some((line) => /^#{2,4} .*[`(.:,]/.test(line) && line.toLowerCase().includes(anchor.split("-")[0] as string));
    });
    expect(target).toBeDefined();
    const newPage = `${folder}/inkwell-new-page`;
    const source = readFileSync(path.join(siteDir, `${page}.mdx`), "utf8");
    const lastLine = source.trimEnd().split("\n").at(-1) as string;
    h.model.setScript(
      steps(
        {
          tools: [
            { name: "write_file", args: { path: `${newPage}.mdx`, content: `---\ntitle: "A new page"\n---\n\nRead [the details](${target}) first.\n`, reason: "The page the team asked for." } },
            { name: "edit_file", args: { path: "docs.json", find: `"${page}"`, replace: `"${page}", "${newPage}"`, reason: "Lists the new page." } },
            { name: "edit_file", args: { path: `${page}.mdx`, find: lastLine, replace: `${lastLine}\n\nSee also [a new page](/${newPage}).`, reason: "Links the new page." } },
          ],
        },
        { text: "Add a page\n\nAdded it, listed it and linked it." },
      ),
    );
    const roundsBefore = validationRounds();
    const dispatched = await h.createJob("Add a page");
    const outcome = await h.run(dispatched);
    expect(outcome.error ?? outcome.status).toBe("completed");
    expect(validationRounds(), feedback()).toBe(roundsBefore);
  });

  it("catches a broken link, a bad anchor and an import of a missing snippet in a new page", async () => {
    const page = navigationPage();
    h.model.setScript((request) => {
      const feedback = lastUserText(request);
      const afterTool = request.messages.at(-1)?.role === "tool";
      if (feedback.startsWith("Validation found")) return afterTool ? { text: "Dropped the page\n\nIt linked to nothing real." } : { tools: [{ name: "delete_file", args: { path: "inkwell-check.mdx", reason: "Its links were wrong." } }] };
      if (afterTool) return { text: "Add a page\n\nAdded." };
      const content = `---\ntitle: Check\n---\nimport Missing from "/snippets/inkwell-missing.mdx"\n\n[gone](/inkwell/no-such-page) and [anchor](/${page}#inkwell-no-such-heading).\n`;
      return { tools: [{ name: "write_file", args: { path: "inkwell-check.mdx", content, reason: "A page." } }] };
    });
    const dispatched = await h.createJob("Add a check page");
    const outcome = await h.run(dispatched);
    expect(outcome.error ?? outcome.status).toBe("completed");
    const feedback = lastUserText(h.model.requests.find((request) => lastUserText(request as ChatRequest).startsWith("Validation found")) as ChatRequest);
    expect(feedback).toContain("inkwell-check.mdx:4: import '/snippets/inkwell-missing.mdx' does not resolve to a file in the repository");
    expect(feedback).toContain("inkwell-check.mdx:6: link '/inkwell/no-such-page' does not resolve to a file in the repository");
    expect(feedback).toContain(`inkwell-check.mdx:6: link '/${page}#inkwell-no-such-heading': ${page}.mdx has no heading with the anchor #inkwell-no-such-heading`);
  });
});

describe("the agent on MkDocs' own docs (redirects plugin, nav in mkdocs.yml)", () => {
  let mk: ActionHarness;
  let mkDir: string;
  beforeAll(async () => {
    mkDir = extractSite("mkdocs");
    mk = await startActionHarness({ name: "mkdocs", dir: mkDir }, steps({ text: "unused" }));
  });
  afterAll(() => mk.close());

  it("moves a page: mkdocs.yml gains one redirect_maps line and its nav line is renamed, nothing else of the file changes", async () => {
    const before = readFileSync(path.join(mkDir, "mkdocs.yml"), "utf8");
    mk.model.setScript(steps({ tools: [{ name: "move_file", args: { from: "docs/about/release-notes.md", to: "docs/about/changelog.md", reason: "Called a changelog now." } }] }, { text: "Rename the release notes\n\nMoved; the old URL redirects." }));
    const dispatched = await mk.createJob("Call the release notes a changelog");
    const outcome = await mk.run(dispatched);

    expect(outcome.error ?? outcome.status).toBe("completed");
    const after = git(mk.remote, "show", `inkwell/${dispatched.jobId}:mkdocs.yml`);
    const [beforeLines, afterLines] = [before.trimEnd().split("\n"), after.split("\n")];
    expect(afterLines.filter((line) => !beforeLines.includes(line))).toEqual(["    - Release Notes: about/changelog.md", "        about/release-notes.md: about/changelog.md"]);
    expect(beforeLines.filter((line) => !afterLines.includes(line))).toEqual(["    - Release Notes: about/release-notes.md"]);
  });
});

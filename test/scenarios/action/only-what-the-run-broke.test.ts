import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startActionHarness, type ActionHarness } from "../../helpers/action-harness.js";
import { lastUserText, steps } from "../../helpers/fake-model.js";

// A Docusaurus site that has lived a while: many pages link to headings that were renamed long ago.
// Every run on it must be judged on what the run did, not on what the site already had (issue 57).
const OLD_BROKEN = 30;
function siteWithOldBrokenAnchors(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "inkwell-old-anchors-"));
  const files: Record<string, string> = {
    "docusaurus.config.js": "module.exports = { title: 'Acme', url: 'https://acme.dev', baseUrl: '/', presets: [['classic', { docs: { sidebarPath: './sidebars.js' } }]] };\n",
    "package.json": JSON.stringify({ dependencies: { "@docusaurus/core": "3.9.2", "@docusaurus/preset-classic": "3.9.2" } }),
    "docs/intro.md": "---\ntitle: Intro\n---\n\n# Intro\n\n## Getting started\n\nStart with the [setup](./setup.md#install).\n",
    "docs/setup.md": "---\ntitle: Setup\n---\n\n# Setup\n\n## Install\n\nRun the installer.\n\n## Configure\n\nEdit the file.\n",
  };
  const pages = Array.from({ length: OLD_BROKEN }, (_, i) => `notes/note-${i}`);
  for (const page of pages) files[`docs/${page}.md`] = `---\ntitle: Note\n---\n\n# Note\n\nSee [the old heading](../setup.md#the-old-way) and [intro](../intro.md#getting-started).\n`;
  files["sidebars.js"] = `module.exports = { docs: ["intro", "setup", ${pages.map((page) => JSON.stringify(page)).join(", ")}] };\n`;
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

let h: ActionHarness;
beforeAll(async () => {
  h = await startActionHarness({ name: "old-anchors", dir: siteWithOldBrokenAnchors() }, steps({ text: "unused" }));
});
afterAll(() => h.close());

describe("a run is judged on what it broke, on a site with old broken anchors", () => {
  it("an edit to a page that already has a broken anchor passes first time; the PR lists the page's old problem apart", async () => {
    h.model.setScript(
      steps(
        { tools: [{ name: "edit_file", args: { path: "docs/notes/note-3.md", find: "# Note\n", replace: "# Note\n\nThis note is about upgrades.\n", reason: "Says what the note is about." } }] },
        { text: "Say what note 3 is about" },
      ),
    );
    const dispatched = await h.createJob("Say what note 3 is about");
    const outcome = await h.run(dispatched);

    expect(outcome.status).toBe("completed");
    expect(h.model.requests.map(lastUserText).filter((text) => text.startsWith("Validation found"))).toEqual([]);
    const [report] = await h.reports(dispatched.jobId);
    expect(report?.validation).toMatchObject({ passed: true, problems: [], alreadyOnSiteCount: 1 });
    const pr = h.github.pulls.find((pull) => pull.head === `inkwell/${dispatched.jobId}`);
    expect(pr?.body).toContain("Already on the site: 1 problem(s)");
    expect(pr?.body).toContain("docs/notes/note-3.md:9: link '../setup.md#the-old-way': docs/setup.md has no heading with the anchor #the-old-way");
  });

  it("a heading the run renames breaks the pages that link to it: that goes back to the agent, the old anchors do not", async () => {
    h.model.setScript((request) => {
      const feedback = lastUserText(request).startsWith("Validation found");
      const afterTool = request.messages.at(-1)?.role === "tool";
      if (afterTool) return { text: "Rename the intro's first section" };
      if (!feedback) return { tools: [{ name: "edit_file", args: { path: "docs/intro.md", find: "## Getting started", replace: "## First steps", reason: "Clearer title." } }] };
      return { tools: [{ name: "edit_file", args: { path: "docs/intro.md", find: "## First steps", replace: "## First steps {#getting-started}", reason: "Keeps the anchor other pages link to." } }] };
    });
    const dispatched = await h.createJob("Call the intro's first section First steps");
    const outcome = await h.run(dispatched);

    expect(outcome.status).toBe("completed");
    const feedback = lastUserText(h.model.requests.find((request) => lastUserText(request).startsWith("Validation found"))!);
    // Every note links to the renamed heading; none of their old #the-old-way links is the agent's.
    expect(feedback.match(/has no heading with the anchor #getting-started/g)).toHaveLength(OLD_BROKEN);
    expect(feedback).not.toContain("#the-old-way");
    const [report] = await h.reports(dispatched.jobId);
    expect(report?.validation).toMatchObject({ passed: true, problems: [] });
  });
});

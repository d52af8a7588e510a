import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { describe, expect, it } from "vitest";
import { listPageFiles } from "../../src/action/docs/framework.js";

const README = readFileSync(path.resolve("README.md"), "utf8");
/** The README and the manual's pages: what GitHub renders as Markdown. */
const RENDERED = ["README.md", ...listPageFiles(path.resolve("."), "docs")];

/** The README's lines outside fenced code blocks, with their line numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  let fenced = false;
  return markdown.split("\n").flatMap((text, index) => {
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line: index + 1, text }];
  });
}

describe("the README and the manual render on GitHub", () => {
  it("every table row has as many cells as its header (a bare | inside code splits a cell)", () => {
    expect(RENDERED.length).toBeGreaterThan(10);
    const broken: string[] = [];
    for (const file of RENDERED) {
      let header: number | null = null;
      for (const { line, text } of proseLines(readFileSync(path.resolve(file), "utf8"))) {
        if (!text.startsWith("|")) {
          header = null;
          continue;
        }
        const cells = text.trim().replace(/^\||\|$/g, "").split(/(?<!\\)\|/).length;
        header ??= cells;
        if (cells !== header) broken.push(`${file}:${line}: ${cells} cells, header has ${header}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README stays the front door: at most 300 lines, with the manual in docs/", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(300);
    expect(README).toContain("](docs/index.md)");
  });

  it("every link of the README to a section or a file of the repository leads somewhere (the gate checks the manual's)", () => {
    const slugger = new GithubSlugger();
    const anchors = new Set(proseLines(README).flatMap(({ text }) => (/^#{1,6} /.test(text) ? [slugger.slug(text.replace(/^#+ /, "").replace(/`/g, ""))] : [])));
    const dead: string[] = [];
    for (const { line, text } of proseLines(README)) {
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/i.test(target)) continue;
        if (target.startsWith("#")) {
          if (!anchors.has(target.slice(1))) dead.push(`line ${line}: ${target}`);
        } else if (!existsSync(path.resolve(target.split("#")[0] ?? ""))) dead.push(`line ${line}: ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });
});

/** Every file of the repository under `dir` whose name ends in one of `extensions`. */
function filesUnder(dir: string, extensions: string[]): string[] {
  return readdirSync(path.resolve(dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension)))
    .map((entry) => path.relative(path.resolve("."), path.join(entry.parentPath, entry.name)));
}

describe("how people are told to run the CLI", () => {
  // Outside the checkout `npx inkwell` asks the npm registry for a package named inkwell: whoever
  // publishes that name would run their code on the reader's machine.
  it("no page, example, help text or dashboard text says `npx inkwell`", () => {
    const told = ["README.md", "compose.yaml", "Dockerfile", "action.yml", ...filesUnder("docs", [".md", ".mdx", ".json"]), ...filesUnder("examples", [""]), ...filesUnder("src", [".ts"]), ...filesUnder("bin", [".js"])];
    expect(told.length).toBeGreaterThan(100);
    const offending = told.flatMap((file) =>
      readFileSync(path.resolve(file), "utf8")
        .split("\n")
        .flatMap((text, index) => (/\bnpx\s+inkwell\b/.test(text) ? [`${file}:${index + 1}`] : [])),
    );
    expect(offending).toEqual([]);
  });

  it("the README's commands run this checkout's CLI by its path", () => {
    expect(README.match(/node bin\/inkwell\.js (projects|keys|jobs|analytics) /g)?.length).toBeGreaterThanOrEqual(5);
    const bare = README.split("\n").filter((line) => /(?<![\w/.-])inkwell (projects|keys|jobs|analytics|store|agents|webhooks|automations) /.test(line));
    expect(bare).toEqual([]);
  });
});

/** The headings of a Markdown file, as written (backticks dropped). */
const headingsOf = (file: string) =>
  proseLines(readFileSync(path.resolve(file), "utf8")).flatMap(({ text }) => (/^#{1,6} /.test(text) ? [text.replace(/^#+ /, "").replace(/`/g, "").trim()] : []));

describe("what the deployment files point at", () => {
  it("every (docs/page.md, \"Section\") of compose.yaml, the Dockerfile and the examples names a section that exists", () => {
    const files = ["compose.yaml", "Dockerfile", ...filesUnder("examples", [""])];
    const cited = files.flatMap((file) => [...readFileSync(path.resolve(file), "utf8").matchAll(/[(;] ?(README|docs\/[\w/-]+\.mdx?)(?:, "([^"\n]+)")?/g)].map(([, page, section]) => ({ file, page: page === "README" ? "README.md" : (page as string), section })));
    expect(cited.length).toBeGreaterThanOrEqual(4);
    const dead = cited.filter(({ page, section }) => !existsSync(path.resolve(page)) || (section !== undefined && !headingsOf(page).includes(section)));
    expect(dead).toEqual([]);
  });

  it("every link of the README to a section of the manual leads to a heading there", () => {
    const dead: string[] = [];
    for (const [, page, anchor] of README.matchAll(/\]\((docs\/[^)#\s]+\.md)#([^)\s]+)\)/g)) {
      const slugger = new GithubSlugger();
      if (!headingsOf(page as string).some((heading) => slugger.slug(heading) === anchor)) dead.push(`${page}#${anchor}`);
    }
    expect(dead).toEqual([]);
  });
});

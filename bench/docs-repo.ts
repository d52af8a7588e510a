import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A Mintlify repository of `pages` pages in sections of 50, each linking the next, with docs.json navigation. */
export function benchDocsRepo(pages: number): string {
  const repo = mkdtempSync(path.join(tmpdir(), "inkwell-bench-docs-"));
  const groups: Array<{ group: string; pages: string[] }> = [];
  for (let i = 0; i < pages; i++) {
    const section = `section-${Math.floor(i / 50)}`;
    const id = `${section}/page-${i}`;
    if (i % 50 === 0) groups.push({ group: section, pages: [] });
    groups.at(-1)?.pages.push(id);
    mkdirSync(path.join(repo, section), { recursive: true });
    const body = Array.from({ length: 12 }, (_, p) => `## Topic ${p}\n\nParagraph ${p} of page ${i} explains option-${(i * 7 + p) % 300} with an example.\n\n\`\`\`bash\nacme run --flag ${p}\n\`\`\`\n`).join("\n");
    writeFileSync(path.join(repo, `${id}.mdx`), `---\ntitle: Page ${i}\ndescription: About page ${i}.\n---\n\nSee [the next page](/${section}/page-${i + 1 < pages ? i + 1 : 0}).\n\n${body}`);
  }
  writeFileSync(path.join(repo, "docs.json"), JSON.stringify({ name: "Bench", navigation: { groups } }, null, 2));
  return repo;
}

/** The path of page `i` (wrapping) in that repository. */
export const benchPagePath = (pages: number, i: number) => `section-${Math.floor((i % pages) / 50)}/page-${i % pages}.mdx`;

import { readFileSync } from "node:fs";
import path from "node:path";
import { escapeRegExp } from "../../shared/regexp.js";
import type { DocsWorkspace } from "../sandbox/workspace.js";
import { vitepressConfigFiles, type DocsProject } from "./framework.js";
import { renamedLine, type RedirectOutcome } from "./redirects.js";
import { siteModel, vitepressBases, vitepressUrl } from "./site-model.js";

const NO_REDIRECTS = "VitePress has no redirects (its rewrites map files to URLs), so the old URL now answers 404";

/**
 * VitePress: its navigation is code (`themeConfig.sidebar` and `nav`, often split across locale
 * config files), so a moved page's entries are renamed where they name it literally: a `link:`
 * string equal to its URL (with or without `.md`/`.html`, as VitePress accepts), or to its URL
 * less a `base:` the same file declares, the way VitePress joins a sidebar group's base with its
 * items' links. Each edit is that string and nothing else. There is no redirect to add.
 */
export async function vitepressMove(workspace: DocsWorkspace, project: DocsProject, from: string, to: string): Promise<RedirectOutcome> {
  const model = siteModel(workspace.repoRoot, project);
  const [oldUrl, newUrl] = [vitepressUrl(model, from), vitepressUrl(model, to)];
  const texts = new Map<string, string>();
  let renamed = 0;
  for (const file of vitepressConfigFiles(workspace.repoRoot, project)) {
    const text = readFileSync(path.join(workspace.repoRoot, file), "utf8");
    const bases = vitepressBases(text);
    // Each way the file may name the page, with how to name the new one: absolute, then relative to each base.
    const names: [string, string][] = [[oldUrl, newUrl], ...bases.filter((base) => base.startsWith("/") && oldUrl.startsWith(base) && newUrl.startsWith(base)).map((base) => [oldUrl.slice(base.length), newUrl.slice(base.length)] as [string, string])];
    let edited = text;
    for (const [oldName, newName] of names.filter(([oldName]) => oldName !== "")) {
      const literal = new RegExp(`(\\blink\\s*:\\s*)(['"\`])${escapeRegExp(oldName)}(\\.md|\\.html)?\\2`, "g");
      edited = edited.replace(literal, (_, key: string, quote: string, suffix: string | undefined) => {
        renamed++;
        return `${key}${quote}${newName}${suffix ?? ""}${quote}`;
      });
    }
    if (edited !== text) texts.set(file, edited);
  }
  if (texts.size === 0) return { none: NO_REDIRECTS };
  const changed = [...texts.keys()];
  await workspace.withHarnessAccess(changed, async () => {
    for (const [file, text] of texts) await workspace.write(file, text);
  });
  return { done: [renamedLine(renamed, changed.join(", ")), `added no redirect: ${NO_REDIRECTS}`], changed };
}

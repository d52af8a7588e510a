import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A stand-in for `@mintlify/link-rot` (the registry cannot be reached in tests) with its API:
 * `buildGraph(root)` → a graph whose `getBrokenInternalLinks()` lists `{relativeDir, filename,
 * originalPath}`. Its rule is one Mintlify applies and the gate does not: a snippet is not a page,
 * so a link to /snippets/… is broken though the file exists; a link to a page that is not there is
 * broken too. Each check appends the site root it read to `log`.
 */
export function writeFakeLinkRot(packageDir: string, log: string): void {
  mkdirSync(packageDir, { recursive: true });
  writeFileSync(path.join(packageDir, "package.json"), JSON.stringify({ name: "@mintlify/link-rot", version: "0.0.0-test", type: "module", main: "index.js" }));
  writeFileSync(
    path.join(packageDir, "index.js"),
    `import fs from "node:fs";
import path from "node:path";
export async function buildGraph(root) {
  fs.appendFileSync(${JSON.stringify(log)}, root + "\\n");
  const pages = [];
  const walk = (dir) => { for (const entry of fs.readdirSync(dir, { withFileTypes: true })) { if (entry.name.startsWith(".")) continue; const full = path.join(dir, entry.name); if (entry.isDirectory()) walk(full); else if (entry.name.endsWith(".mdx")) pages.push(path.relative(root, full)); } };
  walk(root);
  const broken = [];
  for (const page of pages.sort()) {
    for (const match of fs.readFileSync(path.join(root, page), "utf8").matchAll(/\\]\\(([^)#\\s]+)/g)) {
      const link = match[1];
      if (/^[a-z]+:/.test(link)) continue;
      const target = link.startsWith("/") ? path.join(root, link) : path.join(root, path.dirname(page), link);
      if (link.startsWith("/snippets/") || !fs.existsSync(target + ".mdx")) broken.push({ relativeDir: path.dirname(page) === "." ? "" : path.dirname(page), filename: path.basename(page), originalPath: link });
    }
  }
  return { precomputeFileResolutions() {}, getBrokenInternalLinks() { return broken; } };
}
`,
  );
}

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

/**
 * The repository's .gitignore files as git reads them: each folder's file rules the paths below it,
 * a deeper one overriding (the `ignore` package implements gitignore's pattern rules). Read lazily,
 * each file once.
 */
export function gitIgnore(repoRoot: string): (file: string) => boolean {
  const rules = new Map<string, Ignore | null>();
  const rulesOf = (dir: string) => {
    if (!rules.has(dir)) {
      const file = path.join(repoRoot, dir, ".gitignore");
      rules.set(dir, existsSync(file) ? ignore().add(readFileSync(file, "utf8")) : null);
    }
    return rules.get(dir) ?? null;
  };
  return (file) => {
    const segments = path.posix.normalize(file).split("/");
    if (segments[0] === ".." || segments[0] === "") return false;
    let ignored = false;
    for (let depth = 0; depth < segments.length; depth++) {
      const result = rulesOf(segments.slice(0, depth).join("/") || ".")?.test(segments.slice(depth).join("/"));
      if (result?.ignored) ignored = true;
      else if (result?.unignored) ignored = false;
    }
    return ignored;
  };
}

import { readFileSync } from "node:fs";
import path from "node:path";
import { escapeRegExp } from "../../shared/regexp.js";

/**
 * The version of an npm package a site builds with (major, minor): the version its lockfile
 * resolved, in the site's folder or a folder above it up to the repository's root
 * (package-lock.json, yarn.lock classic or berry, pnpm-lock.yaml), else the lowest version the
 * site's package.json range allows; null when neither says (a pnpm `catalog:` range, no manifest).
 */
export function installedVersion(repoRoot: string, siteDir: string, name: string): [number, number] | null {
  const parse = (version: string | undefined): [number, number] | null => {
    const match = /(\d+)\.(\d+)\.\d+/.exec(version ?? "");
    return match ? [Number(match[1]), Number(match[2])] : null;
  };
  const read = (file: string) => {
    try {
      return readFileSync(path.join(repoRoot, file), "utf8");
    } catch {
      return "";
    }
  };
  const escaped = escapeRegExp(name);
  for (let dir = path.posix.normalize(siteDir); ; dir = path.posix.dirname(dir)) {
    const npm = read(path.posix.join(dir, "package-lock.json"));
    if (npm) {
      try {
        const lock = JSON.parse(npm) as { packages?: Record<string, { version?: string }>; dependencies?: Record<string, { version?: string }> };
        const installed = Object.entries(lock.packages ?? {}).find(([key]) => key === `node_modules/${name}` || key.endsWith(`/node_modules/${name}`))?.[1];
        const found = parse(installed?.version ?? lock.dependencies?.[name]?.version);
        if (found) return found;
      } catch {
        // Not JSON: look further.
      }
    }
    const yarn = new RegExp(`^"?${escaped}@[^\\n]*:\\r?\\n\\s+version:?\\s+"?([^"\\s]+)`, "m").exec(read(path.posix.join(dir, "yarn.lock")))?.[1];
    const pnpm = new RegExp(`^\\s*['"]?\\/?${escaped}[@/](\\d+\\.\\d+\\.\\d+)`, "m").exec(read(path.posix.join(dir, "pnpm-lock.yaml")))?.[1];
    const found = parse(yarn) ?? parse(pnpm);
    if (found) return found;
    if (dir === "." || dir === "/" || dir === "") break;
  }
  try {
    const manifest = JSON.parse(read(path.posix.join(siteDir, "package.json"))) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    return parse(manifest.dependencies?.[name] ?? manifest.devDependencies?.[name]);
  } catch {
    return null;
  }
}

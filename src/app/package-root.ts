import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Inkwell's own directory (package.json, vendor/, lib/), found by walking up from this module, so
 * it holds from src/ (tests), lib/ (`npm start`) and a benchmark bundled into node_modules/.cache alike.
 */
function findPackageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "vendor"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Inkwell's package root (package.json beside vendor/) is not above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();

/** A file or directory (end it with /) of the package, as a URL. */
export const packageUrl = (relative: string) => pathToFileURL(path.join(PACKAGE_ROOT, relative) + (relative.endsWith("/") ? "/" : ""));

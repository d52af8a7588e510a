import { MAX_PATH_LENGTH } from "../../shared/analytics-schemas.js";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";

/**
 * The page a hit counts for: the URL path without query string or fragment, and without a trailing
 * slash (`/guide/` and `/guide` are one page). A full URL is reduced to its path. Null when the
 * input is no path at all.
 */
export function normalizePagePath(raw: string): string | null {
  let path = raw.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return null;
    }
  }
  const end = path.search(/[?#]/);
  if (end >= 0) path = path.slice(0, end);
  if (!path.startsWith("/") || hasControlOrSpace(path)) return null;
  if (path.length > 1) path = withoutTrailingSlashes(path) || "/";
  return path.length <= MAX_PATH_LENGTH ? path : null;
}

/** Paths arrive percent-encoded; raw spaces or control characters mean a broken client. */
const hasControlOrSpace = (path: string) => [...path].some((ch) => (ch.codePointAt(0) as number) <= 0x20 || ch === "\u007f");

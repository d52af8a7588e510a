import { MAX_PATH_LENGTH } from "../../../shared/analytics-schemas.js";
import { withoutTrailingSlashes } from "../../../shared/trailing-slashes.js";

/**
 * The page a hit counts for: the URL path without query string or fragment, and without a trailing
 * slash (`/guide/` and `/guide` are one page). A full http(s) URL counts as its path, taken as
 * written (no re-encoding), so `https://host/guide` and `/guide` are one page. Null when the input
 * is no path at all. `PAGE_PATH_PATTERN` (analytics-schemas) states the same rule for clients.
 */
export function normalizePagePath(raw: string): string | null {
  const trimmed = raw.trim();
  const authority = /^https?:\/\/[^/?#]*/i.exec(trimmed);
  let path = authority ? trimmed.slice(authority[0].length) : trimmed;
  const end = path.search(/[?#]/);
  if (end >= 0) path = path.slice(0, end);
  if (authority && path === "") path = "/";
  if (!path.startsWith("/") || hasControlOrSpace(path)) return null;
  if (path.length > 1) path = withoutTrailingSlashes(path) || "/";
  return path.length <= MAX_PATH_LENGTH ? path : null;
}

/**
 * What a hit fetched: the path and query as sent (percent-encoding untouched, a trailing slash kept,
 * the fragment dropped; `https://host?x` fetched `/?x`), which robots.txt judges (RFC 9309 matches
 * the path and query). Null when it is no page path (normalizePagePath) or longer than one.
 */
export function fetchedPath(raw: string): string | null {
  const trimmed = raw.trim();
  const authority = /^https?:\/\/[^/?#]*/i.exec(trimmed);
  let fetched = (authority ? trimmed.slice(authority[0].length) : trimmed).split("#", 1)[0] as string;
  if (authority && !fetched.startsWith("/")) fetched = `/${fetched}`;
  return normalizePagePath(raw) !== null && fetched.length <= MAX_PATH_LENGTH ? fetched : null;
}

/** Paths arrive percent-encoded; raw spaces or control characters mean a broken client. */
const hasControlOrSpace = (path: string) => [...path].some((ch) => (ch.codePointAt(0) as number) <= 0x20 || ch === "\u007f");

import { MAX_PREFIX_SEGMENTS } from "../../../shared/analytics-trend-schemas.js";

/**
 * Sections are path prefixes counted like pages, so a prefix's distinct visitors are exact: the
 * section `/docs/guides/` holds the page `/docs/guides` and every page under it. Each view of a
 * page also widens its sections' day masks (rollup.ts), at most SECTION_DEPTH of them. A section
 * is an `analytics_paths` row ending in `/`, which no page path does (page-path.ts drops trailing
 * slashes), and `analytics_path_sections` links each page to its sections.
 */
export const SECTION_DEPTH = MAX_PREFIX_SEGMENTS;

/** The sections of a page: its enclosing folders and itself, up to SECTION_DEPTH segments (`/` has none: it is the site). */
export function sectionPaths(pagePath: string): string[] {
  const segments = pagePath.split("/").slice(1);
  const sections: string[] = [];
  for (let depth = 1; depth <= Math.min(SECTION_DEPTH, segments.length); depth++) {
    const prefix = segments.slice(0, depth).join("/");
    if (prefix !== "" && !prefix.endsWith("/")) sections.push(`/${prefix}/`);
  }
  return [...new Set(sections)];
}

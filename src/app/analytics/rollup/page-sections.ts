import type { Queryable } from "../../store/db.js";
import type { PageIds } from "../ingest/page-ids.js";
import { recordset } from "../recordset.js";
import { SITE_PATH_ID } from "./plan.js";
import { channelGroup } from "./referral-groups.js";
import { SECTION_DEPTH, sectionPaths } from "./section-paths.js";
import type { ReferralChannel } from "../ingest/referral.js";

/** The section a path prefix names (`/docs/guides`, with or without a trailing slash); null for the whole site; undefined when deeper than sections go (the schemas refuse those). */
export function sectionOfPrefix(pathPrefix: string): string | null | undefined {
  const trimmed = prefixFilter(pathPrefix);
  if (trimmed === null) return null;
  return trimmed.split("/").length - 1 <= SECTION_DEPTH ? `${trimmed}/` : undefined;
}

const MAX_LINKED = 200_000;

/** Links pages to their sections when views are accepted (once per page and process), each link committed on its own like page ids. */
export class PageSections {
  readonly #linked = new Set<number>();

  constructor(
    private readonly db: Queryable,
    private readonly pages: PageIds,
  ) {}

  async link(projectId: string, pages: { path: string; pathId: number }[]): Promise<void> {
    const fresh = new Map(pages.filter((page) => !this.#linked.has(page.pathId)).map((page) => [page.pathId, page.path]));
    if (fresh.size === 0) return;
    const sectionsOf = [...fresh].map(([pathId, path]) => ({ pathId, sections: sectionPaths(path) }));
    const sectionId = await this.pages.resolve(projectId, sectionsOf.flatMap((page) => page.sections));
    const links = sectionsOf.flatMap(({ pathId, sections }) => sections.map((section) => ({ p: pathId, s: sectionId(section) })));
    if (links.length > 0) {
      await this.db.query(
        `INSERT INTO analytics_path_sections (path_id, section_id) SELECT r.p, r.s FROM json_to_recordset($1::json) AS r (p int, s int) ORDER BY 1, 2 ON CONFLICT DO NOTHING`,
        [recordset(links)],
      );
    }
    if (this.#linked.size + fresh.size > MAX_LINKED) this.#linked.clear();
    for (const pathId of fresh.keys()) this.#linked.add(pathId);
  }
}

/** The rollup's view of the links: each page's section ids, read in the chunk's transaction and remembered (links never change). */
export class SectionLookup {
  readonly #known = new Map<number, number[]>();

  async of(tx: Queryable, pathIds: Iterable<number>): Promise<ReadonlyMap<number, number[]>> {
    const missing = [...new Set(pathIds)].filter((pathId) => !this.#known.has(pathId));
    if (missing.length > 0) {
      const rows = await tx.query<{ path_id: number; section_id: number }>(`SELECT path_id, section_id FROM analytics_path_sections WHERE path_id = ANY($1::int[])`, [missing]);
      if (this.#known.size + missing.length > MAX_LINKED) this.#known.clear();
      for (const pathId of missing) this.#known.set(pathId, []);
      for (const row of rows) this.#known.get(row.path_id)?.push(row.section_id);
    }
    return this.#known;
  }
}

/** A path id no row has: what reads the counters of a prefix no view reached. */
export const NO_PATH_ID = -1;

/**
 * The path id whose reach counters count a prefix's visitors: the site's (none, or `/`), its
 * section's; with a channel, that channel's group on the site or the section (referral-groups.ts).
 * Null when no view ever reached it.
 */
export async function prefixPathId(db: Queryable, projectId: string, pathPrefix: string | undefined, channel?: ReferralChannel): Promise<number | null> {
  const section = pathPrefix === undefined ? null : sectionOfPrefix(pathPrefix);
  if (section === undefined) throw new Error(`path prefix ${pathPrefix} is deeper than ${SECTION_DEPTH} segments`);
  const group = channel === undefined ? section : channelGroup(channel, section ?? "");
  if (group === null) return SITE_PATH_ID;
  const rows = await db.query<{ id: number }>(`SELECT id FROM analytics_paths WHERE project_id = $1 AND path = $2`, [projectId, group]);
  return rows[0]?.id ?? null;
}

/** SQL: whether a path is a page, not a group counted like one: sections end in `/` (which only the root page does too), referral groups start with `@`. */
export const isPageSql = (path: string) => `(left(${path}, 1) = '/' AND (${path} = '/' OR right(${path}, 1) <> '/'))`;

/** SQL: whether a path is a prefix's (a parameter, without trailing slash) own page or under it, never `/guidesx` for `/guides`. */
export const underPrefixSql = (path: string, prefix: string) => `(${path} = ${prefix} OR left(${path}, length(${prefix}) + 1) = ${prefix} || '/')`;

/**
 * The ids of the project's pages under a path prefix (null: no prefix, every page), read once so
 * a report matches its rows with `path_id = ANY (ids)`, which the store hashes. Written as a
 * subquery instead, the planner guessed one page for the prefix and read the project's daily
 * rows once per page: 18 s at 10M views.
 */
export async function prefixPageIds(db: Queryable, projectId: string, pathPrefix: string | undefined): Promise<number[] | null> {
  const prefix = prefixFilter(pathPrefix);
  if (prefix === null) return null;
  const rows = await db.query<{ id: number }>(`SELECT id FROM analytics_paths WHERE project_id = $1 AND ${isPageSql("path")} AND ${underPrefixSql("path", "$2")}`, [projectId, prefix]);
  return rows.map((row) => row.id);
}

/** `/guides/` and `/guides` name the same pages; `/` names them all (null: no filter). */
export function prefixFilter(pathPrefix: string | undefined): string | null {
  const trimmed = pathPrefix?.replace(/\/+$/, "") ?? "";
  return trimmed === "" ? null : trimmed;
}

import { FORMAT_CODE } from "../ingest/read-format.js";
import { addCounts, byMaskKey, CLASS_NAME, entry, isFailure, maskKey, nonZero, planReach, SITE_PATH_ID, type ReachPlan } from "./plan.js";
import type { ChunkMasks, ChunkView, ReachCounts, StoredMasks, VisitorMask } from "./plan-types.js";

/**
 * Distinct visitors per format (the visitors report's `format` filter), at the cost of the few
 * views that are not html. A (page, visitor) pair that only ever read html has no format masks:
 * its html days are its site mask's, which marks the pairs that read other formats (`formats`).
 * A pair's first view in another format gives it format masks, its html row starting from its
 * site mask as it was (all html until then); from then on that row is kept.
 */

/** The chunk's masks per format (html included), per page and for the site. */
export function chunkFormatMasks(views: readonly ChunkView[]): ChunkMasks {
  const masks = new Map<string, VisitorMask>();
  for (const view of views) {
    if (isFailure(view.status)) continue;
    const { projectId, windowStart, format, visitor } = view;
    for (const pathId of [view.pathId, SITE_PATH_ID]) {
      const key = { projectId, windowStart, format, pathId, visitor };
      entry(masks, maskKey(key), () => ({ ...key, human: 0, ai: 0, bot: 0 }))[CLASS_NAME[view.trafficClass]] |= 1 << (view.day - windowStart);
    }
  }
  return masks;
}

/** What a chunk changes in the format masks and counters. */
export interface FormatPlan {
  /** Format masks to OR into the stored ones. */
  writes: VisitorMask[];
  /** Counter deltas of the format tables: the other formats' counts, and html's corrections to the site's. */
  counters: ReachPlan;
}

const HTML = FORMAT_CODE.html;
const asHtml = (mask: VisitorMask): VisitorMask => ({ projectId: mask.projectId, windowStart: mask.windowStart, format: HTML, pathId: mask.pathId, visitor: mask.visitor, human: mask.human, ai: mask.ai, bot: mask.bot });
const orMasks = (a: VisitorMask | undefined, b: VisitorMask): VisitorMask => (a ? { ...b, human: a.human | b.human, ai: a.ai | b.ai, bot: a.bot | b.bot } : b);

/**
 * The site masks' keys whose pair reads another format than html, before the chunk or in it:
 * the only keys whose format masks are read and written.
 */
function mixedKeys(storedSite: ReadonlyMap<string, VisitorMask>, siteMasks: ChunkMasks): { before: Set<string>; after: Set<string> } {
  const before = new Set<string>();
  for (const [key, mask] of storedSite) if ((mask.formats ?? 0) !== 0) before.add(key);
  const after = new Set(before);
  for (const [key, mask] of siteMasks) if ((mask.formats ?? 0) !== 0) after.add(key);
  return { before, after };
}

/**
 * html's visitors are the site's, except for the mixed pairs: for those, html's counters take
 * the html masks' reach instead of the site masks'. That difference is stored as html's rows of
 * the format counters (it can be negative), so html costs nothing for a pair that only reads html.
 * `storedSite`: the site masks as they were before the chunk (VisitorStates.masksOf); `siteMasks` the
 * chunk's; `storedFormats`: the stored format masks of the pairs mixed before the chunk;
 * `formatMasks` the chunk's (chunkFormatMasks).
 */
export function planFormats(storedSite: StoredMasks, siteMasks: ChunkMasks, storedFormats: readonly VisitorMask[], formatMasks: ChunkMasks): FormatPlan {
  const storedSiteByKey = byMaskKey(storedSite);
  const mixed = mixedKeys(storedSiteByKey, siteMasks);
  const otherChunk = new Map<string, VisitorMask>();
  for (const [key, mask] of formatMasks) if (mask.format !== HTML) otherChunk.set(key, mask);
  const writes: VisitorMask[] = [...otherChunk.values()];
  if (mixed.after.size === 0) return { writes, counters: planReach([], otherChunk) };

  const storedHtml = new Map(storedFormats.filter((m) => m.format === HTML).map((m) => [maskKey(m), m]));
  const siteBefore: VisitorMask[] = [];
  const siteChunk = new Map<string, VisitorMask>();
  const htmlBefore: VisitorMask[] = [];
  const htmlChunk = new Map<string, VisitorMask>();
  for (const key of mixed.after) {
    const site = siteMasks.get(key);
    if (!site) continue;
    const stored = storedSiteByKey.get(key);
    if (stored) siteBefore.push(stored);
    siteChunk.set(key, site);
    const htmlKey = maskKey(asHtml(site));
    const chunkHtml = formatMasks.get(htmlKey) ?? { ...asHtml(site), human: 0, ai: 0, bot: 0 };
    // Until its first other format, a pair's html days are its site days.
    const before = mixed.before.has(key) ? storedHtml.get(htmlKey) : stored && asHtml(stored);
    if (before) htmlBefore.push(before);
    htmlChunk.set(htmlKey, chunkHtml);
    const row = mixed.before.has(key) ? chunkHtml : orMasks(before, chunkHtml);
    if (row.human | row.ai | row.bot) writes.push(row);
  }
  const asCounted = planReach(siteBefore, siteChunk);
  const html = planReach(htmlBefore, htmlChunk);
  const others = planReach(
    storedFormats.filter((m) => m.format !== HTML),
    otherChunk,
  );
  const minusSite = <T extends ReachCounts>(rows: T[]) => rows.map((c) => ({ ...c, format: HTML, human: -c.human, ai: -c.ai, bot: -c.bot, total: -c.total }));
  return {
    writes,
    counters: {
      windowReach: sumCounters([...others.windowReach, ...html.windowReach, ...minusSite(asCounted.windowReach)], (c) => `${c.windowStart}\n${c.format}\n${c.pathId}`),
      firstVisits: sumCounters([...others.firstVisits, ...html.firstVisits, ...minusSite(asCounted.firstVisits)], (c) => `${c.windowStart}\n${c.format}\n${c.windowDay}\n${c.pathId}`),
      returns: sumCounters(
        [...others.returns, ...html.returns, ...minusSite(asCounted.returns)],
        (c) => `${c.windowStart}\n${c.format}\n${c.windowDay}\n${c.previousWindowDay}\n${c.pathId}`,
      ),
    },
  };
}

/** One row per counter key (an upsert may touch a row once), zero rows left out; keys are within one project. */
function sumCounters<T extends ReachCounts & { projectId: string }>(rows: T[], keyOf: (row: T) => string): T[] {
  const sums = new Map<string, T>();
  for (const row of rows) {
    const key = `${row.projectId}\n${keyOf(row)}`;
    const sum = sums.get(key);
    if (!sum) sums.set(key, { ...row });
    else addCounts(sum, row);
  }
  return nonZero(sums);
}

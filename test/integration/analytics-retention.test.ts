import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Analytics } from "../../src/app/analytics/analytics.js";
import { DAY_MS, epochDay, windowOf } from "../../src/shared/epoch-days.js";
import { createProject } from "../../src/app/domain/projects.js";
import { openTestStore, type TestStore } from "../helpers/store.js";
import { signedRequestOf } from "../../src/app/analytics/classify/web-bot-auth.js";
import { CHROME_UA, KEY_DIRECTORY, signedRequestFields } from "../helpers/web-bot-auth.js";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
// An AI agent whose operator publishes no addresses: counted as claimed, with its own visitor masks.
const META_AGENT = "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)";
let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.drop());

const count = async (sql: string, params: unknown[]) => Number((await store.db.query<{ n: string | number }>(sql, params))[0]?.n ?? 0);

describe("analytics retention", () => {
  it("deletes a window's secret 48 h after the window (and its last use), keeps the counts, and re-salts a later backfill", async () => {
    const analytics = new Analytics(store.db, pino({ level: "silent" }), { rawRetentionDays: 30, backfillDays: 400, rollupChunkSize: 1000 });
    const project = await createProject(store.db, { repoName: "acme/retention", repository: "https://github.com/acme/retention", model: "m" });
    // "Now" is mid-month; the views are from the previous month.
    const now = Date.UTC(2026, 10, 15, 12);
    const lastMonth = windowOf("month", epochDay(Date.UTC(2026, 9, 10)));
    const view = (ip: string, id?: string, userAgent = CHROME) => ({ index: 0, view: { at: Date.UTC(2026, 9, 10, 9), path: "/old", ip, userAgent, ...(id ? { id } : {}) } });
    await analytics.ingest(project.id, [view("192.0.2.1", "a"), { ...view("192.0.2.2"), index: 1 }, { ...view("192.0.2.3", undefined, META_AGENT), index: 2 }], now);
    const range = { from: lastMonth.start, to: lastMonth.end };
    const { report: before } = await analytics.visitors(project.id, range, { limit: 10, offset: 0 });
    expect(before.totals).toEqual({ human: 2, ai: 1, bot: 0, total: 3 });
    // One state per visitor: the two people and the agent.
    expect(await count(`SELECT count(*) AS n FROM analytics_visitor_states WHERE project_id = $1`, [project.id])).toBe(3);

    // The secret was used at `now`, after the window ended: it lives until now + 48 h.
    const [salt] = await store.db.query<{ delete_after: Date | string }>(`SELECT delete_after FROM analytics_salts WHERE project_id = $1`, [project.id]);
    expect(new Date(salt?.delete_after as string).getTime()).toBe(now + 2 * DAY_MS);
    expect((await analytics.prune(now + 2 * DAY_MS - 1)).salts).toBe(0);

    const pruned = await analytics.prune(now + 2 * DAY_MS);
    expect(pruned).toMatchObject({ salts: 1, visitorStates: 3 });
    expect(await count(`SELECT count(*) AS n FROM analytics_salts WHERE project_id = $1`, [project.id])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM analytics_visitor_states WHERE project_id = $1`, [project.id])).toBe(0);
    expect((await analytics.agents(project.id, range, { limit: 10, offset: 0 })).report.totals).toEqual({ views: 1, visitors: 1 });
    expect((await analytics.visitors(project.id, range, { limit: 10, offset: 0 })).report.totals).toEqual(before.totals);

    // A backfill into that window after the deletion gets a new secret: the same person is a new visitor id.
    const later = now + 3 * DAY_MS;
    await analytics.ingest(project.id, [view("192.0.2.1")], later);
    expect(await count(`SELECT count(*) AS n FROM analytics_salts WHERE project_id = $1`, [project.id])).toBe(1);
    expect((await analytics.visitors(project.id, range, { limit: 10, offset: 0 })).report.totals.total).toBe(4);
  });

  it("deletes raw events past their retention and idempotency ids past the backfill horizon", async () => {
    const analytics = new Analytics(store.db, pino({ level: "silent" }), { rawRetentionDays: 7, backfillDays: 20, rollupChunkSize: 1000 });
    const project = await createProject(store.db, { repoName: "acme/raw", repository: "https://github.com/acme/raw", model: "m" });
    const now = Date.UTC(2026, 10, 15, 12);
    const at = (daysAgo: number) => now - daysAgo * DAY_MS;
    const views = [1, 10, 19].map((daysAgo, index) => ({ index, view: { at: at(daysAgo), path: "/p", ip: `192.0.2.${index}`, userAgent: CHROME, id: `line-${index}` } }));
    expect((await analytics.ingest(project.id, views, now)).accepted).toBe(3);
    await analytics.rollup.drain();
    expect(await count(`SELECT count(*) AS n FROM analytics_events WHERE project_id = $1`, [project.id])).toBe(3);

    expect(await count(`SELECT count(*) AS n FROM analytics_hit_ids WHERE project_id = $1`, [project.id])).toBe(3);
    await analytics.prune(now + 3 * DAY_MS);
    // Kept: the event from 4 days before the pass; the ids a re-sent hit could still carry (hits over 20 days old are refused).
    expect(await count(`SELECT count(*) AS n FROM analytics_events WHERE project_id = $1`, [project.id])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM analytics_hit_ids WHERE project_id = $1`, [project.id])).toBe(2);
    expect((await analytics.views(project.id, { from: null, to: null }, { limit: 10, offset: 0 })).report.totals.total).toBe(3);
  });

  it("remembers a verified Web Bot Auth signature until a day after it expired", async () => {
    const directory = (async () => Response.json(KEY_DIRECTORY)) as unknown as typeof fetch;
    const analytics = new Analytics(store.db, pino({ level: "silent" }), { rawRetentionDays: 30, backfillDays: 400, rollupChunkSize: 1000, fetch: directory });
    const project = await createProject(store.db, { repoName: "acme/signed", repository: "https://github.com/acme/signed", model: "m" });
    const now = Date.now();
    const fields = await signedRequestFields({ created: now - 1_000, validForMs: 60_000 });
    const signed = signedRequestOf({ path: "/guide", ...fields });
    expect((await analytics.ingest(project.id, [{ index: 0, view: { at: now, path: "/guide", ip: "198.51.100.7", userAgent: CHROME_UA, signed } }], now)).accepted).toBe(1);
    const uses = () => count(`SELECT count(*) AS n FROM analytics_signature_uses WHERE project_id = $1`, [project.id]);
    expect(await uses()).toBe(1);
    const expired = now - 1_000 + 60_000;
    await analytics.prune(expired + DAY_MS - 60_000);
    expect(await uses()).toBe(1);
    expect((await analytics.prune(expired + DAY_MS + 60_000)).signatureUses).toBe(1);
    expect(await uses()).toBe(0);
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetchDueRobots, robotsSourceReport, setRobotsSource } from "../../../../../src/app/analytics/robots/robots-sources.js";
import { addRobotsVersion, listRobotsVersions } from "../../../../../src/app/analytics/robots/robots-versions.js";
import { createProject } from "../../../../../src/app/domain/projects.js";
import { openTestStore, type TestStore } from "../../../../helpers/store.js";

// The schedule over a real store, a local site and an injected clock: a changed body is a new
// version at the fetch's time, the same body is not, failures are recorded and the schedule goes on.
let server: Server;
let url: string;
let answer: { status: number; body: string };

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(answer.status).end(answer.body));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/robots.txt`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let store: TestStore;
let projectId: string;
let now: number;
beforeEach(async () => {
  store = await openTestStore();
  projectId = (await createProject(store.db, { repoName: "acme/docs", repository: "https://github.com/acme/docs", model: "m" })).id;
  now = Date.parse("2026-03-01T10:00:00Z");
});
afterEach(() => store.drop());

const schedule = (allowPrivate = true) => ({ now: () => new Date(now), allowPrivate, timeoutMs: 2_000 });

describe("fetchDueRobots", () => {
  it("adds a version when the body changed, none when it did not, records failures, and fetches only when due", async () => {
    await setRobotsSource(store.db, projectId, { url, everyMinutes: 60 }, new Date(now));
    answer = { status: 200, body: "User-agent: *\nDisallow: /a\n" };
    expect(await fetchDueRobots(store.db, schedule())).toBe(1);
    expect(await fetchDueRobots(store.db, schedule())).toBe(0);
    now += 60 * 60_000;
    expect(await fetchDueRobots(store.db, schedule())).toBe(1);
    now += 60 * 60_000;
    answer = { status: 503, body: "down" };
    expect(await fetchDueRobots(store.db, schedule())).toBe(1);
    now += 60 * 60_000;
    answer = { status: 200, body: "User-agent: *\nDisallow: /b\n" };
    expect(await fetchDueRobots(store.db, schedule())).toBe(1);

    const { versions } = await listRobotsVersions(store.db, projectId, { limit: 10, offset: 0 });
    expect(versions.map((v) => [v.effectiveAt, v.source, v.body])).toEqual([
      ["2026-03-01T13:00:00.000Z", "fetch", "User-agent: *\nDisallow: /b\n"],
      ["2026-03-01T10:00:00.000Z", "fetch", "User-agent: *\nDisallow: /a\n"],
    ]);
    const report = await robotsSourceReport(store.db, projectId);
    expect(report.source).toEqual({ url, everyMinutes: 60, nextFetchAt: "2026-03-01T14:00:00.000Z" });
    expect(report.fetches.map((f) => [f.fetchedAt, f.outcome, f.status, f.error])).toEqual([
      ["2026-03-01T13:00:00.000Z", "new_version", 200, null],
      ["2026-03-01T12:00:00.000Z", "failed", 503, "the site answered 503"],
      ["2026-03-01T11:00:00.000Z", "unchanged", 200, null],
      ["2026-03-01T10:00:00.000Z", "new_version", 200, null],
    ]);
  });

  it("records a refused private address as a failed fetch, and keeps the schedule", async () => {
    await setRobotsSource(store.db, projectId, { url, everyMinutes: 5 }, new Date(now));
    expect(await fetchDueRobots(store.db, schedule(false))).toBe(1);
    const report = await robotsSourceReport(store.db, projectId);
    expect(report.fetches).toMatchObject([{ outcome: "failed", status: null, error: expect.stringMatching(/loopback address/) }]);
    expect(report.source?.nextFetchAt).toBe("2026-03-01T10:05:00.000Z");
  });
});

describe("addRobotsVersion", () => {
  it("keeps versions in time order and the same body once", async () => {
    const at = (iso: string) => new Date(iso);
    const first = await addRobotsVersion(store.db, projectId, { body: "a", source: "api", effectiveAt: at("2026-01-02T00:00:00Z") });
    expect(first.created).toBe(true);
    expect((await addRobotsVersion(store.db, projectId, { body: "a", source: "api", effectiveAt: at("2026-01-03T00:00:00Z") })).created).toBe(false);
    await expect(addRobotsVersion(store.db, projectId, { body: "b", source: "api", effectiveAt: at("2026-01-01T00:00:00Z") })).rejects.toThrow(/versions are added in time order/);
    await expect(addRobotsVersion(store.db, projectId, { body: "x".repeat(600 * 1024), source: "api", effectiveAt: at("2026-01-05T00:00:00Z") })).rejects.toThrow(/larger than/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { archiveJob, attachChangeRequest } from "../../src/app/domain/jobs/commands.js";
import { DAY_MS, dayToIso, epochDay } from "../../src/shared/epoch-days.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { Visitor } from "../helpers/visitor.js";

// An AI crawler that publishes no address ranges: its views count as AI, unverifiable.
const CRAWLER = "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)";
const today = epochDay(Date.now());
const mergeDay = today - 6;

let t: TestServer;
let project: { projectId: string; key: string };
const visitor = () => new Visitor(t.url);
let operator: Visitor;

/** `count` failed fetches of `path` on `day`, each from its own address. */
const failures = (path: string, day: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ timestamp: new Date(day * DAY_MS + (i + 1) * 60_000).toISOString(), path, ip: `10.9.${day % 250}.${i + 1}`, userAgent: CRAWLER, status: 404 }));

beforeAll(async () => {
  t = await startTestServer();
  project = await t.newProject("acme/suggested");
  const hits = [
    // Fixed by its job: failures before the merge only.
    ...[mergeDay - 3, mergeDay - 1].flatMap((day) => failures("/docs/fixed", day, 4)),
    // Still failing after its job merged.
    ...[mergeDay - 2, mergeDay + 2, mergeDay + 4].flatMap((day) => failures("/docs/still-broken", day, 3)),
    // Never addressed.
    ...failures("/docs/ignored", mergeDay, 2),
  ];
  const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits } });
  expect(answer.body.rejected).toEqual([]);
  operator = visitor();
  await operator.signInAsOperator();
});
afterAll(() => t.close());

const automations = () => operator.get(`/dashboard/projects/${project.projectId}/automations`);
/** The "Addressed by" cell of a suggested page's row. */
const outcomeOf = (page: string, path: string) => new RegExp(`<code>${path}</code></td><td>[^<]*</td><td class="suggestion-outcome">(.*?)</td>`).exec(page)?.[1] ?? null;

describe("a suggestion shows the job that addressed it, and whether the failures stopped", () => {
  let jobs: Record<string, string> = {};

  it("starting a job from a suggestion links it to the page; while its PR is open the row says so", async () => {
    const page = await automations();
    expect(page.status).toBe(200);
    for (const path of ["/docs/fixed", "/docs/still-broken", "/docs/ignored"]) expect(outcomeOf(page.text, path), path).toBe('<span class="muted">—</span>');
    const csrf = await operator.csrf(`/dashboard/projects/${project.projectId}/automations`);
    for (const path of ["/docs/fixed", "/docs/still-broken"]) {
      const started = await operator.post(`/dashboard/projects/${project.projectId}/jobs`, { csrf, prompt: `Add a redirect from ${path}`, suggestion: path, idempotencyKey: `suggestion-key-${path.replaceAll("/", "-")}` });
      expect(started.status).toBe(303);
      jobs = { ...jobs, [path]: /jobs\/([a-z0-9]+)/.exec(started.headers.get("location") ?? "")?.[1] as string };
    }
    for (const [path, jobId] of Object.entries(jobs)) {
      await t.store.db.transaction((tx) => attachChangeRequest(tx, jobId, { number: 9, url: `https://github.com/acme/suggested/pull/${jobId}` }, { replace: true }));
      expect(outcomeOf((await automations()).text, path)).toMatch(new RegExp(`job ${jobId}</a>, pull request open$`));
    }
  });

  it("once merged: stopped where no AI fetch failed since the merge day, still failing (with the count) where they go on", async () => {
    for (const jobId of Object.values(jobs)) {
      await t.store.db.transaction((tx) => archiveJob(tx, jobId, { mergedAt: new Date(mergeDay * DAY_MS + 12 * 3_600_000) }));
    }
    const page = (await automations()).text;
    const since = `since the merge on ${dayToIso(mergeDay)} (6 days)`;
    expect(outcomeOf(page, "/docs/fixed")).toContain(`failures stopped</span>, none ${since}`);
    expect(outcomeOf(page, "/docs/still-broken")).toContain(`still failing</span>, 6 failed AI fetches ${since}`);
    expect(outcomeOf(page, "/docs/ignored")).toBe('<span class="muted">—</span>');
    expect(outcomeOf(page, "/docs/fixed")).toContain(`href="/dashboard/projects/${project.projectId}/jobs/${jobs["/docs/fixed"]}"`);
  });
});

import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { archiveJob, attachChangeRequest } from "../../src/app/domain/jobs/commands.js";
import { impactNoticeOf } from "../../src/app/domain/jobs/merges.js";
import { DAY_MS, epochDay } from "../../src/shared/epoch-days.js";
import { impactNotice } from "../../src/app/impact/job-impact.js";
import type { JobImpact } from "../../src/shared/impact-schemas.js";
import { drainTasks } from "../helpers/drain.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { generateTraffic, wireHit } from "../helpers/traffic.js";

const mergeDay = epochDay(Date.now()) - 20;
const mergedAt = new Date(mergeDay * DAY_MS + 9 * 3_600_000);
const hits = generateTraffic({ seed: 5, people: 120, paths: 6, firstDay: mergeDay - 8, days: 17, views: 1_500 });

let clockMs = (mergeDay + 5) * DAY_MS;
let t: TestServer;
let project: { projectId: string; key: string };
let jobId: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    received.push({ headers: req.headers, body });
    res.writeHead(200).end("ok");
  });
});
let secret: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  t = await startTestServer({ clock: () => clockMs, env: { INKWELL_WEBHOOKS_ALLOW_PRIVATE: "true" }, taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50 } });
  project = await t.newProject("acme/impact-notice");
  const endpoint = await t.call("POST", `/admin/projects/${project.projectId}/webhooks`, {
    token: ADMIN_TOKEN,
    body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: ["job.impact"] },
  });
  expect(endpoint.status).toBe(201);
  secret = endpoint.body.secret;
  for (let i = 0; i < hits.length; i += 1_000) {
    const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, body: { hits: hits.slice(i, i + 1_000).map(wireHit) } });
    expect(answer.body.rejected).toEqual([]);
  }
  const created = await t.call("POST", `/v2/agent/${project.projectId}/job`, { token: project.key, body: { prompt: "Fix the install page" } });
  jobId = created.body.id;
  await t.store.db.query(`UPDATE jobs SET outcome = $2 WHERE id = $1`, [jobId, JSON.stringify({ summary: null, files: [{ path: "docs/page-1.md", change: "modified", page: "/docs/page-1" }], validation: null, usage: null })]);
  await t.store.db.transaction(async (tx) => {
    await attachChangeRequest(tx, jobId, { number: 3, url: "https://github.com/acme/impact-notice/pull/3" }, { replace: true });
    await archiveJob(tx, jobId, { mergedAt });
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const noticeTask = () => t.store.db.query<{ state: string; last_error: string | null; tries: number }>(`SELECT state, last_error, tries FROM tasks WHERE dedupe_key = $1`, [`impact-notice:${jobId}`]);

describe("the first week's notice after a merge", () => {
  it("is queued at the merge; run before the week is over it waits and announces nothing", async () => {
    await drainTasks(t);
    const [task] = await noticeTask();
    expect(task).toMatchObject({ state: "pending", last_error: "the first week after the merge is not over yet" });
    expect(received).toEqual([]);
  });

  it("once the week is over: one signed job.impact delivery with the 7-day result, and the tracking comment's line", async () => {
    clockMs = (mergeDay + 8) * DAY_MS + 11 * 60_000;
    // The retry's wait passes at once: the clock, not the test, waits.
    await t.store.db.query(`UPDATE tasks SET next_try_at = now() WHERE dedupe_key = $1 AND state = 'pending'`, [`impact-notice:${jobId}`]);
    await drainTasks(t);
    expect((await noticeTask())[0]?.state).toBe("done");
    expect(received).toHaveLength(1);
    const delivery = received[0] as { headers: IncomingHttpHeaders; body: string };
    const payload = new Webhook(secret).verify(delivery.body, {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    }) as { type: string; data: { id: string; impact: unknown } };
    const impact = (await t.call("GET", `/v2/agent/${project.projectId}/job/${jobId}/impact`, { token: project.key })).body as JobImpact;
    const expected = impactNotice(impact);
    expect(expected).not.toBeNull();
    expect(expected?.changedPages.humanVisitors.before).toBeGreaterThan(0);
    expect(payload).toMatchObject({ type: "job.impact", data: { id: jobId, impact: expected } });
    // The tracking comment shows it (the comment itself needs the App: here, what it would show).
    const [tracking] = await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks WHERE dedupe_key = $1`, [`tracking:${jobId}`]);
    expect(tracking?.n).toBeGreaterThan(0);
    expect(await impactNoticeOf(t.store.db, jobId)).toEqual(expected);
  });

  it("is sent once: a task queued again finds it announced", async () => {
    await t.store.db.transaction(async (tx) => {
      const { enqueueTask } = await import("../../src/app/tasks/tasks.js");
      await enqueueTask(tx, "impact_notice", `impact-notice:${jobId}`, { jobId });
    });
    await drainTasks(t);
    expect(received).toHaveLength(1);
    const [task] = await t.store.db.query<{ state: string; last_error: string | null }>(`SELECT state, last_error FROM tasks WHERE dedupe_key = $1 ORDER BY id DESC LIMIT 1`, [`impact-notice:${jobId}`]);
    expect(task).toMatchObject({ state: "skipped", last_error: "announced already" });
  });
});

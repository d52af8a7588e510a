import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTrigger, attachChangeRequest } from "../../src/app/domain/jobs/commands.js";
import { createInkwellServer } from "../../src/app/server.js";
import { drainTasks } from "../helpers/drain.js";
import { ADMIN_TOKEN, RELEASE, startTestServer, type TestServer } from "../helpers/server.js";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A receiver on loopback: records every POST, and answers 500 to the first `failures` of each webhook-id it is told to fail. */
async function startReceiver() {
  const received: Received[] = [];
  const failuresLeft = new Map<string, number>();
  let failNextOf: { type: string; times: number } | null = null;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const id = String(req.headers["webhook-id"] ?? "");
      if (failNextOf && body.includes(`"type":"${failNextOf.type}"`) && !failuresLeft.has(id)) failuresLeft.set(id, failNextOf.times);
      const left = failuresLeft.get(id) ?? 0;
      const status = left > 0 ? 500 : 200;
      if (left > 0) failuresLeft.set(id, left - 1);
      received.push({ headers: req.headers, body, status });
      res.writeHead(status).end(status === 200 ? "ok" : "try later");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    failEvent(type: string, times: number) {
      failNextOf = { type, times };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let projectId: string;
let key: string;
const okDispatcher = { dispatch: async () => ({ ok: true as const }) };

beforeAll(async () => {
  receiver = await startReceiver();
  // The endpoints below listen on loopback, which only an operator's setting allows.
  t = await startTestServer({ env: { INKWELL_WEBHOOKS_ALLOW_PRIVATE: "true" }, dispatcher: okDispatcher, taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50 } });
  ({ projectId, key } = await t.newProject("acme/hooks"));
});
afterAll(async () => {
  // The test restarts the server: close the one running now, then the rest.
  await t.inkwell.close(1000);
  await t.close().catch(() => undefined);
  await receiver.close();
});

const admin = (method: string, path: string, body?: unknown) => t.call(method, `/admin/projects/${projectId}${path}`, { token: ADMIN_TOKEN, ...(body === undefined ? {} : { body }) });

/** The wait before a retry passes at once (the schedule is hours long): the clock, not the test, waits. */
async function retryNow(deliveryId: string) {
  await t.store.db.query(`UPDATE tasks SET next_try_at = now() WHERE dedupe_key = $1 AND state = 'pending'`, [`webhook:${deliveryId}`]);
  await drainTasks(t);
}

async function newActiveJob(prompt: string): Promise<string> {
  const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt } });
  await drainTasks(t);
  return created.body.id;
}

describe("project webhooks", () => {
  let secret: string;
  let webhookId: string;

  it("by default refuses an endpoint on a loopback, private or link-local address, saying why and how to allow it", async () => {
    const strict = await startTestServer();
    try {
      const { projectId } = await strict.newProject();
      for (const url of ["http://127.0.0.1:9/hooks", "http://169.254.169.254/latest/meta-data", "http://10.0.0.7/hooks", "http://localhost:8080/hooks", "http://[::ffff:192.168.1.1]/hooks"]) {
        const res = await strict.call("POST", `/admin/projects/${projectId}/webhooks`, { token: ADMIN_TOKEN, body: { url } });
        expect(res.status, url).toBe(400);
        expect(res.body.details, url).toEqual([{ field: "url", message: expect.stringMatching(/address: webhooks go to public addresses only \(the operator allows internal ones with INKWELL_WEBHOOKS_ALLOW_PRIVATE=true\)$/) }]);
      }
      expect((await strict.call("GET", `/admin/projects/${projectId}/webhooks`, { token: ADMIN_TOKEN })).body.webhooks).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it("the operator adds an endpoint: its secret is shown once; bad input is refused naming the field", async () => {
    const created = await admin("POST", "/webhooks", { url: receiver.url });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, format: "standard", events: ["job.completed", "job.failed", "job.archived", "job.pull_request_opened", "job.impact", "job.created", "job.run_started", "job.waiting", "job.run_finished"] });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    ({ secret, id: webhookId } = created.body);
    const listed = await admin("GET", "/webhooks");
    expect(listed.body).toEqual({ webhooks: [{ id: webhookId, url: receiver.url, format: "standard", events: created.body.events, createdAt: created.body.createdAt }] });

    expect((await admin("POST", "/webhooks", { url: "ftp://example.test/x" })).body.error).toMatch(/url: must be an http\(s\) URL/);
    // A path that starts with two slashes (or a backslash, read as one) names a second host to many HTTP stacks.
    for (const url of ["https://example.test//evil.example/x", "https://example.test/\\evil.example", "https://example.test\\evil.example"]) {
      expect((await admin("POST", "/webhooks", { url })).body.error, url).toMatch(/url: must be an http\(s\) URL/);
    }
    expect((await admin("POST", "/webhooks", { url: receiver.url, events: ["job.exploded"] })).status).toBe(400);
    expect((await t.call("POST", `/admin/projects/${projectId}/webhooks`, { body: { url: receiver.url } })).status).toBe(401);
    expect((await t.call("POST", `/admin/projects/nosuchproject/webhooks`, { token: ADMIN_TOKEN, body: { url: receiver.url } })).status).toBe(404);
  });

  it("a completed job's event arrives signed and verifies with the Standard Webhooks library; a receiver failing 3 times gets it once, across a restart", async () => {
    const jobId = await newActiveJob("Add a page about retries");
    receiver.failEvent("job.completed", 3);
    await t.store.db.transaction(async (tx) => {
      await attachChangeRequest(tx, jobId, { number: 7, url: "https://github.com/acme/hooks/pull/7" }, { replace: true });
      await applyTrigger(tx, { jobId, trigger: "run_succeeded", cause: "runner" });
    });
    t.inkwell.services.tasks.kick();
    await drainTasks(t);
    const completedId = () => receiver.received.find((r) => r.body.includes('"type":"job.completed"'))?.headers["webhook-id"] as string;
    expect(completedId()).toBeTruthy();
    await retryNow(completedId());

    // The server restarts between two attempts: the delivery is a row, so the new process carries on.
    await t.inkwell.close(1000);
    t.inkwell = await createInkwellServer({ config: t.config, db: t.store.db, log: pino({ level: "silent" }), adminToken: ADMIN_TOKEN, dispatcher: okDispatcher, taskWorkerOptions: { backoffBaseMs: 10, backoffCapMs: 50 }, version: RELEASE });
    const { url } = await t.inkwell.listen(Number(new URL(t.url).port), "127.0.0.1");
    expect(url).toBe(t.url);
    await retryNow(completedId());
    await retryNow(completedId());

    const completed = receiver.received.filter((r) => r.headers["webhook-id"] === completedId());
    expect(completed.map((r) => r.status)).toEqual([500, 500, 500, 200]);
    for (const attempt of completed) {
      const payload = new Webhook(secret).verify(attempt.body, attempt.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
      expect(payload).toMatchObject({ type: "job.completed", data: { id: jobId, status: "completed", prLink: "https://github.com/acme/hooks/pull/7" } });
    }
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(completed[0]!.body, completed[0]!.headers as Record<string, string>)).toThrow();
    expect(String(completed[0]?.headers["user-agent"])).toMatch(/^Inkwell-Webhooks\//);

    const opened = receiver.received.filter((r) => r.body.includes('"type":"job.pull_request_opened"'));
    expect(opened).toHaveLength(1);
    expect(JSON.parse(opened[0]!.body).data).toMatchObject({ id: jobId, status: "active", prLink: "https://github.com/acme/hooks/pull/7" });

    const log = (await admin("GET", `/webhooks/${webhookId}/deliveries`)).body.deliveries;
    expect(log.find((d: { id: string }) => d.id === completedId())).toMatchObject({ event: "job.completed", state: "delivered", attempts: 4, lastStatus: 200, lastError: null });
    expect(log.find((d: { event: string }) => d.event === "job.pull_request_opened")).toMatchObject({ state: "delivered", attempts: 1 });

    // Nothing is left to retry: the delivered event is not sent again by itself.
    await drainTasks(t);
    expect(receiver.received.filter((r) => r.headers["webhook-id"] === completedId())).toHaveLength(4);
  });

  it("redelivers on request with the same webhook-id, and lists it", async () => {
    const [latest] = (await admin("GET", `/webhooks/${webhookId}/deliveries?limit=1`)).body.deliveries;
    const before = receiver.received.length;
    const res = await admin("POST", `/webhooks/${webhookId}/deliveries/${latest.id}/redeliver`);
    expect(res.status).toBe(202);
    await drainTasks(t);
    expect(receiver.received.slice(before).map((r) => r.headers["webhook-id"])).toEqual([latest.id]);
    expect((await admin("GET", `/webhooks/${webhookId}/deliveries?limit=1`)).body.deliveries[0]).toMatchObject({ id: latest.id, state: "delivered", attempts: latest.attempts + 1 });
    expect((await admin("POST", `/webhooks/${webhookId}/deliveries/nosuch/redeliver`)).status).toBe(404);
    expect((await admin("GET", `/webhooks/${webhookId}/deliveries?limit=0`)).status).toBe(400);
  });

  it("a Slack endpoint gets a readable message for the events it takes; a deleted endpoint gets nothing more", async () => {
    const slack = await admin("POST", "/webhooks", { url: `${receiver.url}/slack`, format: "slack", events: ["job.failed"] });
    expect(slack.status).toBe(201);
    const jobId = await newActiveJob("Rewrite everything");
    const before = receiver.received.length;
    await t.call("POST", `/v2/agent/${projectId}/job/${jobId}/cancel`, { token: key });
    await drainTasks(t);
    const sent = receiver.received.slice(before);
    const message = sent.find((r) => !r.headers["webhook-id"]);
    expect(JSON.parse(message?.body ?? "{}")).toEqual({ text: `:x: Inkwell job \`${jobId}\` on acme/hooks failed\n> Cancelled by an API key; nothing more was pushed. Send a message to continue on the same branch.` });
    // The standard endpoint takes every event: the job's failure and the end of its run (cancelled before its report).
    expect(sent.filter((r) => r.headers["webhook-id"]).map((r) => JSON.parse(r.body).type).sort()).toEqual(["job.failed", "job.run_finished"]);

    expect((await admin("DELETE", `/webhooks/${webhookId}`)).status).toBe(204);
    expect((await admin("GET", `/webhooks/${webhookId}/deliveries`)).status).toBe(404);
    const other = await t.newProject("acme/other-hooks");
    expect((await t.call("DELETE", `/admin/projects/${other.projectId}/webhooks/${slack.body.id}`, { token: ADMIN_TOKEN })).status).toBe(404);
    const after = receiver.received.length;
    const next = await newActiveJob("And again");
    await t.call("POST", `/v2/agent/${projectId}/job/${next}/cancel`, { token: key });
    await drainTasks(t);
    expect(receiver.received.slice(after).every((r) => !r.headers["webhook-id"])).toBe(true);
  });
});

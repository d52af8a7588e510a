import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
let projectId: string;
let key: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ projectId, key } = await t.newProject());
});
afterAll(() => t.close());

/** A raw HTTP/1.1 request, so malformed input reaches the server as sent. */
function raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("no request produces a 5xx", () => {
  it("odd paths, methods, headers and bodies all get a JSON 4xx", async () => {
    const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const cases: [string, string, Record<string, string>, string?][] = [
      ["GET", `/v2/agent/${projectId}/job/%ZZ`, auth],
      ["GET", `/v2/agent/%ZZ/jobs`, auth],
      ["GET", `/v2/agent/${projectId}/job/${"a".repeat(5000)}`, auth],
      ["GET", `/v2/agent/${projectId}/jobs?limit=%ZZ`, auth],
      ["GET", `/v2/agent/${projectId}/jobs?status=`, auth],
      ["GET", `/v2/agent/${projectId}//jobs`, auth],
      ["OPTIONS", `/v2/agent/${projectId}/jobs`, auth],
      ["PATCH", `/v2/agent/${projectId}/job/x`, auth],
      ["POST", `/v2/agent/${projectId}/job`, auth, "null"],
      ["POST", `/v2/agent/${projectId}/job`, auth, "[]"],
      ["POST", `/v2/agent/${projectId}/job`, auth, '{"prompt": {"nested": true}}'],
      ["POST", `/v2/agent/${projectId}/job`, auth, "[".repeat(100_000)],
      ["POST", `/v2/agent/${projectId}/job`, auth, "\u0000\u0001"],
      ["POST", `/v2/agent/${projectId}/job`, { ...auth, "Content-Type": "text/plain" }, "prompt=hi"],
      ["POST", `/v2/agent/${projectId}/job`, { ...auth, Authorization: `Bearer ${"x".repeat(8000)}` }, '{"prompt":"x"}'],
      ["POST", `/v2/agent/${projectId}/job`, { ...auth, Authorization: "Bearer" }, '{"prompt":"x"}'],
      ["POST", `/v2/agent/${projectId}/job/nojob/message`, auth, '{"prompt":""}'],
      ["POST", "/admin/projects", { Authorization: `Bearer ${ADMIN_TOKEN}` }, '{"repository": ["acme/docs"]}'],
      ["POST", "/admin/projects", { Authorization: `Bearer ${ADMIN_TOKEN}` }, '{"repository": "acme/docs", "ref": 5}'],
      ["DELETE", `/admin/projects/${projectId}/keys/%ZZ`, { Authorization: `Bearer ${ADMIN_TOKEN}` }],
      ["POST", "/api/github/webhooks", { "Content-Type": "application/json" }, "{}"],
      ["GET", "/%", {}],
    ];
    for (const [method, path, headers, body] of cases) {
      const res = await raw(method, path, headers, body);
      expect(res.status, `${method} ${path.slice(0, 60)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path.slice(0, 60)}`).toBeLessThan(500);
      expect(() => JSON.parse(res.text), `${method} ${path.slice(0, 60)}`).not.toThrow();
    }
  });

  it("a body larger than the cap is refused without being read whole", async () => {
    const res = await raw("POST", `/v2/agent/${projectId}/job`, { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Content-Length": String(50 * 1024 * 1024) }, "{");
    expect(res.status).toBe(413);
  });

  it("HEAD answers like GET without a body", async () => {
    const res = await raw("HEAD", "/healthz", {});
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
  });
});

describe("values the store cannot hold", () => {
  const NUL = "a\u0000b";
  const LONE_SURROGATE = "a\ud800b";

  it("are refused at the edge with a 400 naming the field, on every kind of input, and nothing is stored", async () => {
    const admin = { token: ADMIN_TOKEN };
    const created = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "A real job" } });
    expect(created.status).toBe(201);
    const cases: [string, string, { token: string; body: unknown }, string][] = [
      ["POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: NUL } }, "prompt"],
      ["POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: LONE_SURROGATE } }, "prompt"],
      ["POST", `/v2/agent/${projectId}/job/${created.body.id}/message`, { token: key, body: { prompt: NUL } }, "prompt"],
      ["POST", "/admin/projects", { ...admin, body: { repository: "acme/nul-name", name: NUL } }, "name"],
      ["POST", "/admin/projects", { ...admin, body: { repository: "acme/nul-model", model: LONE_SURROGATE } }, "model"],
      ["POST", `/admin/projects/${projectId}/keys`, { ...admin, body: { name: NUL } }, "name"],
      ["POST", `/v1/analytics/${projectId}/hits`, { token: key, body: { hits: [{ timestamp: Date.now(), path: `/docs/${NUL}`, ip: "203.0.113.9", userAgent: "Mozilla/5.0" }] } }, "path"],
    ];
    for (const [method, path, options, field] of cases) {
      const res = await t.call(method, path, options);
      const what = `${method} ${path} ${field}`;
      if (path.endsWith("/hits")) {
        expect(res.status, what).toBe(202);
        expect(res.body.accepted, what).toBe(0);
        expect(res.body.rejected[0].error, what).toMatch(new RegExp(`^${field}: must not contain NUL`));
        continue;
      }
      expect(res.status, what).toBe(400);
      expect(res.body.details, what).toContainEqual({ field, message: `${field}: must not contain NUL (U+0000) or unpaired surrogate characters` });
    }
    const jobs = await t.call("GET", `/v2/agent/${projectId}/jobs`, { token: key });
    expect(jobs.body.jobs).toHaveLength(1);
    const projects = await t.call("GET", "/admin/projects", admin);
    expect(projects.body.projects.map((p: { repository: string }) => p.repository).filter((r: string) => r.includes("nul-"))).toEqual([]);
  });
});

describe("health", () => {
  it("answers 503 when the store does not answer, and the API fails without leaking details", async () => {
    const own = await startTestServer();
    const { projectId: pid, key: k } = await own.newProject();
    await own.store.db.close();
    const health = await own.call("GET", "/healthz");
    expect(health.status).toBe(503);
    expect(health.body.status).toBe("unavailable");
    const res = await own.call("GET", `/v2/agent/${pid}/jobs`, { token: k });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: "Internal error; the server log has the details" });
    await own.inkwell.close(100);
    await own.store.drop();
  });
});

describe("connections", () => {
  it("keeps an idle keep-alive connection open longer than a proxy's 60 s idle limit, and says so to the client", async () => {
    const answer = await new Promise<{ keepAlive: string | undefined; connection: string | undefined }>((resolve, reject) => {
      const url = new URL(t.url);
      const req = request({ host: url.hostname, port: url.port, path: "/healthz", agent: new Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        res.on("end", () => resolve({ keepAlive: String(res.headers["keep-alive"] ?? ""), connection: res.headers.connection }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(answer.connection).toBe("keep-alive");
    // Node advertises the server's keepAliveTimeout; clients (undici, a proxy) reuse the connection within it.
    const seconds = Number(/timeout=(\d+)/.exec(answer.keepAlive ?? "")?.[1]);
    expect(seconds).toBeGreaterThan(60);
    expect(t.inkwell.server.headersTimeout).toBeLessThanOrEqual(t.inkwell.server.requestTimeout);
  });
});

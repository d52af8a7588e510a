import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const ORIGIN = "https://docs.example.com";

let t: TestServer;
let project: { projectId: string; key: string; keyId: string };
let other: { projectId: string; key: string; keyId: string };
const hit = (extra: Record<string, unknown> = {}) => ({ timestamp: new Date(Date.now() - 60_000).toISOString(), path: "/guide", ip: "198.51.100.7", userAgent: CHROME, ...extra });

beforeAll(async () => {
  t = await startTestServer();
  project = await t.newProject(undefined, { analytics: { allowedOrigins: [`${ORIGIN}/`] } });
  other = await t.newProject();
});
afterAll(() => t.close());

const postHits = (body: unknown, token = project.key, projectId = project.projectId) => t.call("POST", `/v1/analytics/${projectId}/hits`, { token, body });
const beacon = (headers: Record<string, string>, body: unknown = { path: "/guide" }, projectId = project.projectId) =>
  t.call("POST", `/v1/analytics/${projectId}/events`, { rawBody: JSON.stringify(body), headers: { "Content-Type": "text/plain", ...headers } });
const visitors = (query = "", projectId = project.projectId, token = project.key) => t.call("GET", `/v1/analytics/${projectId}/visitors${query ? `?${query}` : ""}`, { token });

describe("server-side batch: POST /v1/analytics/{projectId}/hits", () => {
  it("refuses a missing, malformed or revoked key with 401 and another project's key with 403", async () => {
    expect((await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { body: { hits: [hit()] } })).status).toBe(401);
    expect((await postHits({ hits: [hit()] }, "ink_nope")).status).toBe(401);
    expect((await postHits({ hits: [hit()] }, other.key)).status).toBe(403);
    const spare = await t.call("POST", `/admin/projects/${project.projectId}/keys`, { token: ADMIN_TOKEN, body: {} });
    await t.call("DELETE", `/admin/projects/${project.projectId}/keys/${spare.body.id}`, { token: ADMIN_TOKEN });
    expect((await postHits({ hits: [hit()] }, spare.body.key)).status).toBe(401);
  });

  it.each([
    ["a body that is not JSON", "{nope", /not valid JSON/],
    ["an array body", [hit()], /must be a JSON object/],
    ["no hits field", {}, /hits/],
    ["hits that is not an array", { hits: "x" }, /hits/],
    ["an empty batch", { hits: [] }, /at least one hit/],
    ["more than 1,000 hits", { hits: Array.from({ length: 1001 }, () => hit()) }, /at most 1000 hits/],
  ])("answers 400 for %s, naming the problem", async (_name, body, message) => {
    const answer = typeof body === "string" ? await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, rawBody: body }) : await postHits(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(message);
  });

  it("refuses a misspelt or unknown query parameter on every report and list, naming it and the name it likely meant", async () => {
    const cases: [string, string, string | null][] = [
      [`/v1/analytics/${project.projectId}/visitors?datefrom=2026-01-01`, "datefrom", "dateFrom"],
      [`/v1/analytics/${project.projectId}/views?pathprefix=/docs`, "pathprefix", "pathPrefix"],
      [`/v1/analytics/${project.projectId}/agents?limt=5`, "limt", "limit"],
      [`/v1/analytics/${project.projectId}/failures?colour=red`, "colour", null],
      [`/v1/analytics/${project.projectId}/timeseries?intervl=week`, "intervl", "interval"],
      [`/v1/analytics/${project.projectId}/referrers?chanel=ai`, "chanel", "channel"],
      [`/v2/agent/${project.projectId}/jobs?stauts=active`, "stauts", "status"],
    ];
    for (const [path, field, suggestion] of cases) {
      const res = await t.call("GET", path, { token: project.key });
      expect(res.status, path).toBe(400);
      expect(res.body.details, path).toEqual([{ field, message: `${field}: unknown query parameter${suggestion ? `; did you mean '${suggestion}'?` : ""}` }]);
    }
    expect((await t.call("GET", `/v1/analytics/${project.projectId}/visitors?dateFrom=2026-01-01&limit=5`, { token: project.key })).status).toBe(200);
  });

  it("answers 413 for a body over the size cap", async () => {
    const answer = await t.call("POST", `/v1/analytics/${project.projectId}/hits`, { token: project.key, rawBody: `{"hits":["${"x".repeat(5 * 1024 * 1024)}"]}` });
    expect(answer.status).toBe(413);
  });

  it("stores the valid hits of a mixed batch and reports each invalid one by its index", async () => {
    const now = Date.now();
    const answer = await postHits({
      hits: [
        hit({ path: "/mixed" }),
        hit({ ip: "999.1.1.1" }),
        hit({ timestamp: "yesterday" }),
        hit({ timestamp: new Date(now + 3_600_000).toISOString() }),
        hit({ timestamp: new Date(now - 401 * 86_400_000).toISOString() }),
        hit({ path: "no-slash" }),
        { ...hit(), userAgent: 42 },
        { timestamp: hit().timestamp, ip: "198.51.100.8", userAgent: CHROME },
        "not an object",
        hit({ path: "https://docs.example.com/mixed?utm=1", timestamp: now - 1000, ip: "2001:db8::1" }),
      ],
    });
    expect(answer.status).toBe(202);
    expect(answer.body.accepted).toBe(2);
    expect(answer.body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const errors = Object.fromEntries(answer.body.rejected.map((r: { index: number; error: string }) => [r.index, r.error]));
    expect(errors[1]).toMatch(/^ip:/);
    expect(errors[2]).toMatch(/^timestamp:/);
    expect(errors[3]).toMatch(/timestamp: is in the future/);
    expect(errors[4]).toMatch(/timestamp: is more than 400 days old/);
    expect(errors[5]).toMatch(/^path:/);
    expect(errors[6]).toMatch(/^userAgent:/);
    expect(errors[7]).toMatch(/^path:/);
    expect(errors[8]).toMatch(/^hit:/);
    const counted = await visitors("limit=250");
    expect(counted.body.visitors).toContainEqual({ path: "/mixed", human: 2, ai: 0, bot: 0, total: 2 });
  });

  it("counts a hit with an id once, however often it is sent", async () => {
    const { projectId, key } = await t.newProject();
    const batch = [hit({ id: "line-1" }), hit({ id: "line-2", ip: "198.51.100.9" }), hit({ id: "line-1" })];
    expect((await postHits({ hits: batch }, key, projectId)).body).toEqual({ accepted: 3, duplicates: 1, rejected: [] });
    expect((await postHits({ hits: batch }, key, projectId)).body).toEqual({ accepted: 3, duplicates: 3, rejected: [] });
    const views = await t.call("GET", `/v1/analytics/${projectId}/views`, { token: key });
    expect(views.body.totals).toEqual({ human: 2, ai: 0, bot: 0, total: 2 });
  });
});

describe("browser beacon: GET /js/script.js and POST /v1/analytics/{projectId}/events", () => {
  it("serves the script as cacheable JavaScript that posts to the events endpoint", async () => {
    const script = await t.call("GET", "/js/script.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(script.headers.get("cache-control")).toMatch(/max-age=3600/);
    expect(script.body).toContain("/v1/analytics/");
    expect(script.body).toContain("data-project");
    expect(script.body).toContain("pushState");
    expect(script.body).not.toMatch(/cookie|localStorage/);
  });

  it("accepts a view from an allowed origin with CORS headers, and answers the preflight", async () => {
    const answer = await beacon({ Origin: ORIGIN, "User-Agent": CHROME });
    expect(answer.status).toBe(202);
    expect(answer.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const preflight = await t.call("OPTIONS", `/v1/analytics/${project.projectId}/events`, { headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST");
  });

  it("refuses other origins and requests without an Origin with 403, unknown projects with 404, bad bodies with 400", async () => {
    const evil = await beacon({ Origin: "https://evil.example", "User-Agent": CHROME });
    expect(evil.status).toBe(403);
    expect(evil.body.error).toMatch(/--allowed-origin https:\/\/evil.example/);
    expect((await beacon({ "User-Agent": CHROME })).status).toBe(403);
    expect((await t.call("OPTIONS", `/v1/analytics/${project.projectId}/events`, { headers: { Origin: "https://evil.example" } })).status).toBe(403);
    expect((await beacon({ Origin: ORIGIN }, { path: "/x" }, "nosuchproject")).status).toBe(404);
    expect((await beacon({ Origin: ORIGIN }, { nope: true })).status).toBe(400);
    expect((await beacon({ Origin: ORIGIN }, { path: "relative" })).status).toBe(400);
    expect((await beacon({ Origin: ORIGIN }, { path: `/${"x".repeat(5_000)}` })).status).toBe(413);
    expect((await t.call("GET", `/v1/analytics/${project.projectId}/events`)).status).toBe(405);
  });

  it("takes the client address from the socket, ignoring X-Forwarded-For from untrusted peers", async () => {
    const { projectId, key } = await t.newProject(undefined, { analytics: { allowedOrigins: [ORIGIN] } });
    for (const forwarded of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      expect((await beacon({ Origin: ORIGIN, "User-Agent": CHROME, "X-Forwarded-For": forwarded }, { path: "/spoof" }, projectId)).status).toBe(202);
    }
    const counted = await visitors("", projectId, key);
    expect(counted.body.totals).toEqual({ human: 1, ai: 0, bot: 0, total: 1 });
  });

  it("behind a trusted proxy, the client is the nearest untrusted X-Forwarded-For hop", async () => {
    const proxied = await startTestServer({ env: { INKWELL_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" } });
    try {
      const { projectId, key } = await proxied.newProject(undefined, { analytics: { allowedOrigins: [ORIGIN] } });
      const send = (xff: string) =>
        proxied.call("POST", `/v1/analytics/${projectId}/events`, { rawBody: '{"path":"/p"}', headers: { Origin: ORIGIN, "User-Agent": CHROME, "X-Forwarded-For": xff } });
      // A forged left-most hop does not make a new visitor: the proxy appended the real one.
      expect((await send("6.6.6.6, 203.0.113.1, 10.1.2.3")).status).toBe(202);
      expect((await send("7.7.7.7, 203.0.113.1")).status).toBe(202);
      expect((await send("203.0.113.2")).status).toBe(202);
      const counted = await proxied.call("GET", `/v1/analytics/${projectId}/visitors`, { token: key });
      expect(counted.body.totals).toEqual({ human: 2, ai: 0, bot: 0, total: 2 });
    } finally {
      await proxied.close();
    }
  });
});

describe("exports: GET /v1/analytics/{projectId}/visitors and /views", () => {
  it("refuses missing keys with 401 and other projects' keys with 403", async () => {
    expect((await t.call("GET", `/v1/analytics/${project.projectId}/visitors`)).status).toBe(401);
    expect((await visitors("", project.projectId, other.key)).status).toBe(403);
    expect((await t.call("GET", `/v1/analytics/${project.projectId}/views`, { token: other.key })).status).toBe(403);
  });

  it.each([
    ["dateFrom after dateTo", "dateFrom=2026-03-03&dateTo=2026-03-02", /dateFrom/],
    ["an impossible date", "dateFrom=2026-02-30", /dateFrom/],
    ["a date-time with a zone that is not one", "dateTo=2026-03-01T10:00:00X", /dateTo/],
    ["an offset past the maximum", "offset=1000000001", /offset/],
    ["limit 0", "limit=0", /limit/],
    ["limit 251", "limit=251", /limit/],
    ["a fractional limit", "limit=1.5", /limit/],
    ["a negative offset", "offset=-1", /offset/],
    ["a repeated parameter", "limit=1&limit=2", /more than once/],
  ])("answers 400 for %s", async (_name, query, message) => {
    for (const endpoint of ["visitors", "views"]) {
      const answer = await t.call("GET", `/v1/analytics/${project.projectId}/${endpoint}?${query}`, { token: project.key });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(message);
    }
  });

  it("counts a date-time by its UTC date, offsets applied, and excludes dateTo's date", async () => {
    const { projectId, key } = await t.newProject();
    const base = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1) - 10 * 86_400_000;
    const day = (n: number) => new Date(base + n * 86_400_000).toISOString().slice(0, 10);
    await postHits({ hits: [hit({ timestamp: `${day(0)}T23:30:00-02:00`, path: "/late" }), hit({ timestamp: `${day(1)}T12:00:00Z`, path: "/noon", ip: "198.51.100.20" })] }, key, projectId);
    const ask = (q: string) => t.call("GET", `/v1/analytics/${projectId}/visitors?${q}`, { token: key }).then((r) => r.body.visitors.map((v: { path: string }) => v.path));
    // 23:30 at -02:00 on day 0 is 01:30 UTC on day 1.
    expect(await ask(`dateFrom=${day(1)}&dateTo=${day(2)}`)).toEqual(["/late", "/noon"]);
    expect(await ask(`dateFrom=${day(0)}&dateTo=${day(1)}`)).toEqual([]);
    expect(await ask(`dateFrom=${day(1)}T22:00:00.123-05:00`)).toEqual([]);
    expect(await ask(`dateTo=${day(1)}T23:59:59Z`)).toEqual([]);
    expect(await ask(`dateTo=${day(2)}T00:30:00-01:00`)).toEqual(["/late", "/noon"]);
    // 00:30 at +01:00 on day 2 is still day 1 in UTC ('+' must be sent as %2B in a query string).
    expect(await ask(`dateFrom=${encodeURIComponent(`${day(2)}T00:30:00+01:00`)}`)).toEqual(["/late", "/noon"]);
    // Without an offset a date-time is UTC, whatever the server's time zone.
    expect(await ask(`dateFrom=${day(1)}T23:59:59&dateTo=${day(2)}T00:00:00`)).toEqual(["/late", "/noon"]);
    expect(await ask(`dateTo=${day(1)}T23:59:59.999`)).toEqual([]);
  });

  it("accepts the documented maximum offset (and has nothing there)", async () => {
    const answer = await t.call("GET", `/v1/analytics/${project.projectId}/visitors?offset=1000000000`, { token: project.key });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ visitors: [], hasMore: false });
  });
});

describe("operator: analytics settings", () => {
  it("normalizes allowed origins, refuses bad ones, and fixes the salt window once views were counted", async () => {
    const { projectId, key } = await t.newProject();
    const patch = (body: unknown) => t.call("PATCH", `/admin/projects/${projectId}`, { token: ADMIN_TOKEN, body });
    const updated = await patch({ analytics: { allowedOrigins: ["https://Docs.Example.com/", "http://localhost:3001"], saltWindow: "week" } });
    expect(updated.status).toBe(200);
    expect(updated.body.analytics).toEqual({ saltWindow: "week", allowedOrigins: ["https://docs.example.com", "http://localhost:3001"], markdownAsPage: true });
    expect((await patch({ analytics: { allowedOrigins: ["https://docs.example.com/path"] } })).status).toBe(400);
    expect((await patch({ analytics: { saltWindow: "year" } })).status).toBe(400);
    expect((await t.call("PATCH", `/admin/projects/${projectId}`, { body: { analytics: {} } })).status).toBe(401);
    await postHits({ hits: [hit()] }, key, projectId);
    const late = await patch({ analytics: { saltWindow: "day" } });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/salt window is week/);
    expect((await patch({ analytics: { saltWindow: "week", allowedOrigins: [] } })).status).toBe(200);
  });
});

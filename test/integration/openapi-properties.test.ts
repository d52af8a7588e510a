import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MODEL } from "../../src/shared/api-schemas.js";
import nock from "nock";
import { appEnv, fakeGitHubApp, GITHUB_API, isolateGitHub, startOidcIssuer } from "../helpers/github.js";
import { hostileJson, hostileString, validValue } from "../helpers/openapi-arbitraries.js";
import { openApiContract, pointerSegment, type OpenApiContract } from "../helpers/openapi-contract.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";
import { storeKind } from "../helpers/store.js";
import { volume } from "../helpers/tier.js";

/**
 * Requests generated from the published /openapi.json, valid and hostile, against the real server
 * on the store under test. Valid by the document: never 400 and never 5xx. Anything: never 5xx,
 * and the answer is one the document lists for that operation, with a body matching its schema.
 */

const PUBLIC_URL = "https://inkwell.test";
const ORIGIN = "https://docs.example.com";
// Runs per operation: full strength in the full tier on PostgreSQL, a sixth of it on PGlite (the
// contract is the same code over either store, and PGlite answers these requests about seven times
// slower: full strength there cost CI two and a half minutes), and in the quick tier what still
// gives every operation valid and hostile cases and every kind of hostility (ten) about twenty
// times over the document's operations (seventy in November 2026).
const FULL_STRENGTH = storeKind() === "postgres";
const VALID_RUNS = volume(3, FULL_STRENGTH ? 30 : 5, "PROPERTY_RUNS_VALID");
const HOSTILE_RUNS = volume(4, FULL_STRENGTH ? 50 : 8, "PROPERTY_RUNS_HOSTILE");

let t: TestServer;
let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
let contract: OpenApiContract;
let known: { projectId: string; key: string; jobId: string; runnerToken: string };
const cases = { valid: 0, hostile: 0 };

beforeAll(async () => {
  isolateGitHub();
  issuer = await startOidcIssuer();
  t = await startTestServer({
    // Generated webhook URLs are any the document allows: where they may point is policy, tested in project-webhooks.test.ts.
    env: appEnv({ PUBLIC_URL, INKWELL_OIDC_ISSUER: issuer.url, INKWELL_RATE_LIMIT_PER_HOUR: "1000000", INKWELL_WEBHOOKS_ALLOW_PRIVATE: "true" }),
    github: fakeGitHubApp(),
  });
  contract = openApiContract((await t.call("GET", "/openapi.json")).body);
  // GitHub's side of linking a source repository: the App is installed on every repository asked about.
  nock(GITHUB_API).persist().get(/^\/repos\/[^/]+\/[^/]+\/installation$/).reply(200, { id: 4242, app_id: 123 });
  // Slack's side of saving the Slack app's settings (before GitLab's catch-all host, which nock would try first): every bot token is a bot's; Socket Mode gets no connection.
  const slackApi = nock("https://slack.com").persist();
  slackApi.post("/api/auth.test").reply(200, { ok: true, user_id: "UBOT", team_id: "T1" });
  slackApi.post("/api/apps.connections.open").reply(200, { ok: false, error: "invalid_auth" });
  // GitLab's side of connecting a project, on whatever instance a generated request names (shapes from GitLab's REST docs: projects, users, hooks).
  const gitlab = nock(/^https?:\/\/(?!127\.0\.0\.1|localhost)/).persist();
  gitlab.get(/\/api\/v4\/projects\/[^/]+$/).reply((uri) => {
    const ref = decodeURIComponent(uri.split("/").pop()!);
    const path = /^\d+$/.test(ref) ? `group/project-${ref}` : ref;
    return [200, { id: /^\d+$/.test(ref) ? Number(ref) : 7000 + (cases.valid % 1000), path_with_namespace: path, default_branch: "main", web_url: `https://gitlab.example/${path}`, archived: false }];
  });
  gitlab.get(/\/api\/v4\/user$/).reply(200, { id: 900, username: "project_7000_bot", bot: true });
  gitlab.post(/\/api\/v4\/projects\/\d+\/hooks$/).reply(201, { id: 1 });
  const { projectId, key } = await t.newProject("acme/property-docs", { analytics: { allowedOrigins: [ORIGIN] } });
  const job = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Seed job" } });
  const runnerToken = await issuer.token({ repository: "acme/property-docs", repository_id: "5005" }, { audience: PUBLIC_URL });
  // keyId is never the real key's: revoking it would turn every later case into a 401.
  known = { projectId, key, jobId: job.body.id, runnerToken };
});
afterAll(async () => {
  process.stdout.write(`OpenAPI properties (${storeKind()}): ${cases.valid} valid and ${cases.hostile} hostile requests over ${contract.operations.length} operations\n`);
  await t.close();
  await issuer.close();
  nock.cleanAll();
});

interface Request {
  method: string;
  path: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const asParameter = (value: unknown) => String(value);

/** The ids a path parameter names: mostly the real ones (so requests reach the logic), sometimes any valid id. */
function pathValue(template: string, name: string, pointer: string): fc.Arbitrary<string> {
  const real = name === "projectId" || (name === "id" && template.startsWith("/admin/")) ? known.projectId : name === "id" ? known.jobId : null;
  const any = validValue(contract, pointer).map(asParameter);
  return real ? fc.oneof({ weight: 4, arbitrary: fc.constant(real) }, any) : any;
}

function credentials(operation: any): Record<string, string> {
  const scheme = Object.keys(operation.security?.[0] ?? {})[0];
  const token = scheme === "projectKey" ? known.key : scheme === "operatorToken" ? ADMIN_TOKEN : scheme === "runnerToken" ? known.runnerToken : null;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** A request the document says is valid for this operation. */
function validRequest(path: string, method: string, operation: any): fc.Arbitrary<Request> {
  const base = `/paths/${pointerSegment(path)}/${method}`;
  const parameters: any[] = operation.parameters ?? [];
  const parts = parameters.map((parameter, i) => {
    const pointer = `${base}/parameters/${i}/schema`;
    if (parameter.in === "path") return pathValue(path, parameter.name, pointer).map((value) => ({ parameter, value }));
    return fc.option(validValue(contract, pointer).map(asParameter), { nil: undefined }).map((value) => ({ parameter, value }));
  });
  const mediaType = Object.keys(operation.requestBody?.content ?? {})[0];
  const body = mediaType
    ? validValue(contract, `${base}/requestBody/content/${pointerSegment(mediaType)}/schema`).map((value) => JSON.stringify(withRealCron(withProjectModel(value))))
    : fc.constant(undefined);
  const maybeBody = operation.requestBody && !operation.requestBody.required ? fc.option(body, { nil: undefined }) : body;
  return fc.tuple(fc.tuple(...parts), maybeBody).map(([values, payload]) => {
    let concrete = path;
    const query: Array<[string, string]> = [];
    const headers: Record<string, string> = { ...credentials(operation), Origin: ORIGIN };
    for (const { parameter, value } of values) {
      if (value === undefined) continue;
      if (parameter.in === "path") concrete = concrete.replace(`{${parameter.name}}`, encodeURIComponent(value));
      else if (parameter.in === "query") query.push([parameter.name, value]);
      else if (parameter.in === "header") headers[parameter.name] = value;
    }
    orderDocumentedRanges(query);
    dropUncombinedFormat(query);
    if (payload !== undefined && mediaType) headers["Content-Type"] = mediaType;
    return { method: method.toUpperCase(), path: concrete, query, headers, ...(payload !== undefined ? { body: payload } : {}) };
  });
}

/** A rule the document states in words: a job's `model` is the project's own or one of its allowedModels (none here). */
function withProjectModel(value: unknown): unknown {
  if (value === null || typeof value !== "object" || !("prompt" in value) || !("model" in value)) return value;
  return { ...value, model: DEFAULT_MODEL };
}

/** A rule the document states in words: a schedule's five fields are cron syntax (ranges in order, steps within the field), which its pattern only outlines. */
function withRealCron(value: unknown): unknown {
  if (value === null || typeof value !== "object" || !("cron" in value) || typeof value.cron !== "string") return value;
  const seed = [...value.cron].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7) >>> 0;
  return { ...value, cron: `${seed % 60} ${seed % 24} * * ${seed % 8 === 7 ? "*" : seed % 7}` };
}

/** The one rule across fields the document states in words: dateFrom is not after dateTo. */
function orderDocumentedRanges(query: Array<[string, string]>): void {
  const from = query.find(([name]) => name === "dateFrom");
  const to = query.find(([name]) => name === "dateTo");
  if (from && to && dayOf(from[1]) > dayOf(to[1])) [from[1], to[1]] = [to[1], from[1]];
}
/** A rule the format parameter states in words: not with a channel, nor (on visitors) with a path prefix other than `/`. */
function dropUncombinedFormat(query: Array<[string, string]>): void {
  const narrowed = query.some(([name, value]) => name === "channel" || (name === "pathPrefix" && value.replace(/\/+$/, "") !== ""));
  const format = query.findIndex(([name]) => name === "format");
  if (narrowed && format >= 0) query.splice(format, 1);
}
const dayOf = (value: string) => (value.length === 10 ? value : new Date(value.replace(/z$/, "Z").replace(/([+-]\d{2})$/, "$1:00")).toISOString().slice(0, 10));

const percentEncodedHostile = fc.constantFrom("%00", "%ED%A0%80", "%C0%AF", "%2F..%2F", "%E2%80%AE", "%FF%FE", "a%20b", "..", "%25", "x".repeat(300));
const rawBodies = fc.oneof(
  fc.constantFrom(5_000, 50_000).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
  fc.constantFrom(5_000, 50_000).map((depth) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)),
  hostileString.map((s) => `{"prompt":"valid","prompt":${JSON.stringify(s)},"path":"/","path":${JSON.stringify(s)}}`),
  fc.constantFrom('{"prompt":"\\u0000"}', '{"prompt":"\\ud800"}', '{"hits":[{"timestamp":1e999}]}', '{"runAttempt":1e309}', "{", "[]", "null", '"str"', "1", '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{}}}'),
  fc.uint8Array({ minLength: 1, maxLength: 64 }),
);

/** A valid request with one thing made hostile: a field, the whole body, a query value, a path segment, a header. */
function hostileRequest(path: string, method: string, operation: any): fc.Arbitrary<Request> {
  return fc.tuple(validRequest(path, method, operation), fc.nat(9), hostileJson, hostileString, percentEncodedHostile, rawBodies).map(([request, how, value, text, segment, raw]) => {
    const mutated: Request = { ...request, query: [...request.query], headers: { ...request.headers } };
    const body = typeof request.body === "string" ? (JSON.parse(request.body) as unknown) : undefined;
    switch (how) {
      case 0:
      case 1:
        if (body && typeof body === "object" && !Array.isArray(body)) {
          const keys = Object.keys(body);
          const key = keys.length > 0 && how === 0 ? keys[text.length % keys.length]! : text.slice(0, 20) || "extra";
          mutated.body = JSON.stringify({ ...body, [key]: value });
        } else mutated.body = JSON.stringify(value);
        break;
      case 2:
        mutated.body = JSON.stringify(value);
        break;
      case 3:
        mutated.body = raw;
        break;
      case 4:
        if (mutated.query.length > 0) mutated.query[0] = [mutated.query[0]![0], text];
        else mutated.query.push([["limit", "offset", "dateFrom", "status"][text.length % 4]!, text]);
        break;
      case 5:
        mutated.query.push(...mutated.query, ["limit", "2"], ["limit", "3"]);
        break;
      case 6: {
        const segments = mutated.path.split("/");
        segments[Math.max(1, text.length % segments.length)] = segment;
        mutated.path = segments.join("/");
        break;
      }
      case 7:
        mutated.headers.Authorization = `Bearer ${text.replace(/[^\x20-\x7e]/g, "")}`;
        break;
      case 8:
        // Header values are bytes: keep Latin-1, but not the line breaks and NUL fetch itself refuses.
        mutated.headers["Idempotency-Key"] = [...text].map((ch) => (ch.charCodeAt(0) > 0xff || "\r\n\u0000".includes(ch) ? "?" : ch)).join("");
        break;
      default:
        mutated.headers["Content-Type"] = text.replace(/[^\x20-\x7e]/g, "") || "application/x-www-form-urlencoded";
    }
    return mutated;
  });
}

async function send(request: Request) {
  const url = new URL(t.url + request.path);
  for (const [name, value] of request.query) url.searchParams.append(name, value);
  const response = await fetch(url, { method: request.method, headers: request.headers, body: request.body ?? null });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: checked against the document's media type below.
  }
  return { status: response.status, contentType: response.headers.get("content-type"), body };
}

const describeRequest = (request: Request) => {
  const body = request.body === undefined ? "" : typeof request.body === "string" ? request.body.slice(0, 300) : `<${request.body.length} bytes>`;
  return `${request.method} ${request.path}?${new URLSearchParams(request.query).toString().slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 200)} ${body}`;
};

// A failure prints fast-check's seed: FC_SEED=<seed> replays the same requests.
if (process.env.FC_SEED) fc.configureGlobal({ seed: Number(process.env.FC_SEED) });

describe("requests generated from /openapi.json", () => {
  // Longer than the suite's 30 s: every answered GET /admin/store/snapshot dumps the whole store (about half a second).
  it("valid by the document: never refused with 400, never 5xx, answered as documented", async () => {
    for (const { path, method, operation } of contract.operations) {
      await fc.assert(
        fc.asyncProperty(validRequest(path, method, operation), async (request) => {
          cases.valid++;
          const response = await send(request);
          const problems = contract.responseProblems(method, path, response.status, response.contentType, response.body);
          if (response.status === 400 || response.status >= 500 || problems.length > 0) {
            throw new Error(`${operation.operationId}: ${response.status} ${String(JSON.stringify(response.body)).slice(0, 400)} ${problems.join("; ")}\n${describeRequest(request)}`);
          }
        }),
        { numRuns: VALID_RUNS },
      );
    }
    expect(cases.valid).toBe(VALID_RUNS * contract.operations.length);
  });

  it("hostile or careless: never 5xx, always a documented answer", async () => {
    for (const { path, method, operation } of contract.operations) {
      await fc.assert(
        fc.asyncProperty(hostileRequest(path, method, operation), async (request) => {
          cases.hostile++;
          let response;
          try {
            response = await send(request);
          } catch (error) {
            // fetch itself refuses some header values (not bytes a server would see): nothing to check.
            if (error instanceof TypeError && /header|ByteString/i.test(String(error.message) + String((error as any).cause))) return;
            throw error;
          }
          const routed = contract.responseProblems(method, path, response.status, response.contentType, response.body);
          if (response.status >= 500 || (routed.length > 0 && !isUnroutedPath(path, method, request, response))) {
            throw new Error(`${operation.operationId}: ${response.status} ${String(JSON.stringify(response.body)).slice(0, 400)} ${routed.join("; ")}\n${describeRequest(request)}`);
          }
        }),
        { numRuns: HOSTILE_RUNS },
      );
    }
    expect(cases.hostile).toBe(HOSTILE_RUNS * contract.operations.length);
  });
});

/**
 * A mangled path segment can take the request off the operation's route (`..` is resolved by the
 * client, `%00` names nothing). Then the answer is the one of the route it reached: another
 * documented operation's, the router's 404 or 405 with an Error body, or, for a path the document
 * does not describe (`/js/..` is the service's root), not this document's to check.
 */
function isUnroutedPath(operationPath: string, method: string, request: Request, response: { status: number; contentType: string | null; body: unknown }): boolean {
  const sent = new URL(t.url + request.path).pathname;
  if (routeOf(operationPath).test(sent)) return false;
  const reached = contract.operations.find((other) => other.method === method && routeOf(other.path).test(sent));
  if (reached) return contract.responseProblems(method, reached.path, response.status, response.contentType, response.body).length === 0;
  if (response.status === 404 || response.status === 405) return contract.validatorAt("/components/schemas/Error")(response.body);
  return !contract.operations.some((other) => routeOf(other.path).test(sent));
}

const routeOf = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[a-z0-9]{1,64}")}$`);

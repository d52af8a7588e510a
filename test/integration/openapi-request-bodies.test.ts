import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appEnv, fakeGitHubApp, isolateGitHub, startOidcIssuer } from "../helpers/github.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

/**
 * What the OpenAPI document says of unknown body fields is what the server does (docs/api.md): a
 * request schema is closed (`additionalProperties: false`), at the top and at every nested object,
 * exactly where the server refuses a field it does not know. Each operation with a JSON body is sent
 * a field no schema has, at each object the document describes, past authentication.
 */

const PUBLIC_URL = "https://inkwell.test";
const ORIGIN = "https://docs.example.com";
const UNKNOWN = "zzNoSuchField";

let t: TestServer;
let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
let doc: any;
let credentials: { projectId: string; key: string; runnerToken: string };

beforeAll(async () => {
  isolateGitHub();
  issuer = await startOidcIssuer();
  t = await startTestServer({ env: appEnv({ PUBLIC_URL, INKWELL_OIDC_ISSUER: issuer.url }), github: fakeGitHubApp() });
  doc = (await t.call("GET", "/openapi.json")).body;
  const { projectId, key } = await t.newProject("acme/closed-docs", { analytics: { allowedOrigins: [ORIGIN] } });
  credentials = { projectId, key, runnerToken: await issuer.token({ repository: "acme/closed-docs", repository_id: "5005" }, { audience: PUBLIC_URL }) };
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});

const resolve = (schema: any): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")]) : schema);
const branches = (schema: any): any[] => (schema.anyOf ?? schema.oneOf ?? [schema]).map(resolve);
const isObject = (schema: any) => branches(schema).every((branch) => branch.type === "object");
/** Closed: every branch says additionalProperties false. */
const closed = (schema: any) => branches(schema).every((branch) => branch.additionalProperties === false);

/** The body's object schemas, each with the property path that reaches it ([] the body itself). */
function objectsOf(schema: any, path: string[] = []): { path: string[]; schema: any }[] {
  const here = resolve(schema);
  if (!isObject(here)) return [];
  const nested = branches(here).flatMap((branch) => Object.entries<any>(branch.properties ?? {}).flatMap(([name, property]) => objectsOf(property, [...path, name])));
  return [{ path, schema: here }, ...nested];
}

/** A body with the unknown field at `path`: the rest of the body need not be valid, unknown fields are named first. */
const probeAt = (path: string[]): Record<string, unknown> => path.reduceRight<Record<string, unknown>>((inner, name) => ({ [name]: inner }), { [UNKNOWN]: 1 });

function credentialsFor(op: any): Record<string, string> {
  const scheme = Object.keys(op.security[0] ?? {})[0];
  if (scheme === "projectKey") return { Authorization: `Bearer ${credentials.key}` };
  if (scheme === "operatorToken") return { Authorization: `Bearer ${ADMIN_TOKEN}` };
  if (scheme === "runnerToken") return { Authorization: `Bearer ${credentials.runnerToken}` };
  return { Origin: ORIGIN };
}

const operations = () =>
  Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      // GitLab's webhook takes GitLab's own payloads (open), past a connected project's hook token: gitlab.test.ts;
      // Slack's path takes Slack's, past its signature: slack.test.ts.
      .filter(([, op]) => op.requestBody?.content?.["application/json"] && op.operationId !== "receiveGitLabWebhook" && op.operationId !== "receiveSlackRequest")
      .map(([method, op]) => ({ method, path, op, schema: op.requestBody.content["application/json"].schema })),
  );

describe("request bodies: closed in the OpenAPI document exactly where the server refuses unknown fields", () => {
  it("covers every operation with a JSON body, the refusing ones among them", () => {
    const all = operations();
    expect(all.length).toBeGreaterThanOrEqual(13);
    const refusing = all.filter(({ schema }) => closed(resolve(schema))).map(({ op }) => op.operationId);
    expect(refusing.sort()).toEqual(["addRobotsVersion", "connectGitLabProject", "createApiKey", "createAutomation", "createProject", "createWebhook", "putSlackChannel", "putSlackSettings", "setRobotsSource", "updateAutomation", "updateProject"]);
  });

  it("each object of each body: refused with a 400 naming the field when closed, let through when open", async () => {
    const seen: string[] = [];
    for (const { method, path, op, schema } of operations()) {
      const url = path.replace("{projectId}", credentials.projectId).replace(/\{\w+\}/g, "abc123");
      for (const object of objectsOf(schema)) {
        const field = [...object.path, UNKNOWN].join(".");
        const where = `${method.toUpperCase()} ${path} ${field}`;
        const answer = await t.call(method.toUpperCase(), url, { body: probeAt(object.path), headers: credentialsFor(op) });
        // Past authentication and routing, or the probe proves nothing.
        expect([401, 403, 404, 405, 500], `${where}: ${JSON.stringify(answer.body)}`).not.toContain(answer.status);
        const named = (answer.body.details ?? []).some((d: { field?: string }) => d.field === field);
        if (closed(object.schema)) {
          expect(answer.status, where).toBe(400);
          expect(named, `${where}: ${JSON.stringify(answer.body)}`).toBe(true);
          expect(answer.body.error, where).toContain(`${field}: unknown field`);
        } else {
          expect(named, `${where}: ${JSON.stringify(answer.body)}`).toBe(false);
        }
        seen.push(where);
      }
    }
    // Nested objects were reached too: the analytics settings of a project.
    expect(seen).toContain(`PATCH /admin/projects/{id} analytics.${UNKNOWN}`);
    expect(seen).toContain(`POST /admin/projects analytics.${UNKNOWN}`);
  });

  it("the seed's job bodies stay open (extra fields ignored); a project's nested analytics settings are closed", () => {
    const body = (path: string, method: string) => resolve(doc.paths[path][method].requestBody.content["application/json"].schema);
    expect(body("/v2/agent/{projectId}/job", "post").additionalProperties).toBeUndefined();
    expect(body("/v2/agent/{projectId}/job/{id}/message", "post").additionalProperties).toBeUndefined();
    expect(resolve(body("/admin/projects/{id}", "patch").properties.analytics).additionalProperties).toBe(false);
  });
});

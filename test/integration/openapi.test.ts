import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";

let t: TestServer;
let doc: any;
beforeAll(async () => {
  t = await startTestServer({ env: { PUBLIC_URL: "https://docs-agent.example.com" } });
  doc = (await t.call("GET", "/openapi.json")).body;
});
afterAll(() => t.close());

const UNDOCUMENTED = new Set(["GET /", "GET /openapi.json"]);

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 with the server's public URL", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "https://docs-agent.example.com" }]);
  });

  it("documents every endpoint the server routes, plus the visitors export", () => {
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ":$1")}`)),
    );
    const routed = t.inkwell.router.list().map((r) => `${r.method} ${r.pattern}`);
    const normalise = (s: string) => s.replace(/:\w+/g, ":param");
    const documentedNormalised = new Set([...documented].map(normalise));
    for (const route of routed) {
      // The dashboard serves HTML pages to browsers, not API endpoints.
      if (UNDOCUMENTED.has(route) || route.includes(" /dashboard")) continue;
      expect(documentedNormalised.has(normalise(route)), route).toBe(true);
    }
    expect(documented.has("GET /v1/analytics/:projectId/visitors")).toBe(true);
  });

  it("every $ref resolves, and the schemas carry the validation rules", () => {
    for (const ref of collectRefs(doc)) {
      const name = ref.replace("#/components/schemas/", "");
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
    const prompt = doc.components.schemas.PromptRequest.properties.prompt;
    expect(prompt).toMatchObject({ type: "string", minLength: 1, maxLength: 32000 });
    expect(doc.components.schemas.AgentJob.required).toEqual(
      expect.arrayContaining(["id", "status", "source", "model", "prLink", "createdAt", "archivedAt"]),
    );
    expect(doc.components.schemas.AgentJob.properties.status.enum).toEqual(["active", "completed", "archived", "failed"]);
    const visitors = doc.paths["/v1/analytics/{projectId}/visitors"].get.parameters;
    const limit = visitors.find((p: { name: string }) => p.name === "limit");
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 250, default: 50 });
    const list = doc.paths["/v2/agent/{projectId}/jobs"].get.parameters.find((p: { name: string }) => p.name === "status");
    expect(list.schema.enum).toEqual(["active", "completed", "archived", "failed"]);
    expect(doc.paths["/v2/agent/{projectId}/job"].post.responses["429"].headers["Retry-After"]).toBeDefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Ajv2020 from "ajv/dist/2020.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { nodeAt, openApiContract, pointerSegment } from "../helpers/openapi-contract.js";
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

/** Every JSON Schema in the document: components, parameters, headers, request and response bodies. */
function schemaPointers(doc: any): string[] {
  const pointers = Object.keys(doc.components.schemas).map((name) => `/components/schemas/${name}`);
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const base = `/paths/${pointerSegment(path)}/${method}`;
      (op.parameters ?? []).forEach((_: unknown, i: number) => pointers.push(`${base}/parameters/${i}/schema`));
      for (const type of Object.keys(op.requestBody?.content ?? {})) pointers.push(`${base}/requestBody/content/${pointerSegment(type)}/schema`);
      for (const [status, response] of Object.entries<any>(op.responses)) {
        for (const [type, media] of Object.entries<any>(response.content ?? {})) if (media.schema) pointers.push(`${base}/responses/${status}/content/${pointerSegment(type)}/schema`);
        for (const header of Object.keys(response.headers ?? {})) pointers.push(`${base}/responses/${status}/headers/${pointerSegment(header)}/schema`);
      }
    }
  }
  return pointers;
}


describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document (the OpenAPI Initiative's schema)", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("every schema in it is valid JSON Schema 2020-12 and compiles in a strict validator", () => {
    const meta = new Ajv2020.default({ strict: false });
    const pointers = schemaPointers(doc);
    expect(pointers.length).toBeGreaterThan(40);
    for (const pointer of pointers) {
      expect(meta.validateSchema(nodeAt(doc, pointer)), `${pointer}: ${JSON.stringify(meta.errors)}`).toBe(true);
    }
    const contract = openApiContract(doc);
    for (const pointer of pointers) expect(() => contract.validatorAt(pointer), pointer).not.toThrow();
  });

  it("states the rules the server enforces on text: no NUL, no lone surrogate, not only whitespace", () => {
    const contract = openApiContract(doc);
    const prompt = contract.validatorAt("/components/schemas/PromptRequest");
    expect(prompt({ prompt: "Fix the typo" })).toBe(true);
    expect(prompt({ prompt: " \n\t " })).toBe(false);
    expect(prompt({ prompt: "a\u0000b" })).toBe(false);
    expect(prompt({ prompt: "a\ud800b" })).toBe(false);
    expect(prompt({ prompt: "emoji 😀 and RTL \u202e text" })).toBe(true);
    const key = contract.validatorAt("/paths/~1v2~1agent~1{projectId}~1job/post/parameters/1/schema");
    expect(key("retry-7")).toBe(true);
    expect(key("has space")).toBe(false);
    const dateFrom = contract.validatorAt("/paths/~1v1~1analytics~1{projectId}~1visitors/get/parameters/1/schema");
    expect(["2026-11-16", "2026-11-16T10:00:00Z", "2026-11-16 10:00:00+01:00"].map((d) => dateFrom(d))).toEqual([true, true, true]);
    expect(["yesterday", "2026-02-30"].map((d) => dateFrom(d))).toEqual([false, false]);
  });

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

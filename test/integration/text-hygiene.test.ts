import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStorableText } from "../../src/shared/stored-values.js";
import { validValue } from "../helpers/openapi-arbitraries.js";
import { openApiContract, pointerSegment, type OpenApiContract } from "../helpers/openapi-contract.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

/**
 * Text storage cannot hold, in every documented request field: U+0000 and a lone surrogate, each
 * beside a marker, sent to each string of a valid body and to each query parameter of every
 * operation the document lists (the runner's and the forges' webhooks aside: the runner's text is
 * made storable, the forges' payloads are theirs). The answer is never a 5xx; a refusal names the
 * field and stores nothing (no row anywhere holds the marker); an answer that took the text made
 * it storable (docs/api.md, "Text").
 */

let t: TestServer;
let contract: OpenApiContract;
let known: { projectId: string; key: string; jobId: string };
let probes = 0;

beforeAll(async () => {
  t = await startTestServer({ env: { INKWELL_RATE_LIMIT_PER_HOUR: "1000000", INKWELL_WEBHOOKS_ALLOW_PRIVATE: "true" } });
  contract = openApiContract((await t.call("GET", "/openapi.json")).body);
  const { projectId, key } = await t.newProject("acme/hygiene-docs");
  const job = await t.call("POST", `/v2/agent/${projectId}/job`, { token: key, body: { prompt: "Seed job" } });
  known = { projectId, key, jobId: job.body.id };
});
afterAll(() => t.close());

const UNSTORABLE = { nul: "\u0000", "lone surrogate": "\uD800" } as const;

/** Every operation a client or an operator calls, with its one JSON body (if any). */
const operations = () =>
  contract.operations.filter(({ path }) => !path.startsWith("/v2/runner") && !path.includes("/webhooks/github") && !path.includes("/gitlab/webhook") && path !== "/mcp");

function concretePath(template: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => (name === "projectId" || (name === "id" && template.startsWith("/admin/")) ? known.projectId : name === "id" ? known.jobId : name === "keyId" ? "key_doesnotexist" : "x"));
}
const credentials = (operation: any): string | undefined => {
  const scheme = Object.keys(operation.security?.[0] ?? {})[0];
  return scheme === "projectKey" ? known.key : scheme === "operatorToken" ? ADMIN_TOKEN : undefined;
};

/** Each string leaf of a JSON value with its dotted path. */
function stringLeaves(value: unknown, at = ""): string[] {
  if (typeof value === "string") return [at];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringLeaves(item, `${at}${at ? "." : ""}${index}`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, `${at}${at ? "." : ""}${key}`));
  return [];
}
function withLeaf(value: unknown, path: string[], text: string): unknown {
  if (path.length === 0) return `${value as string}${text}`;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) return value.map((item, index) => (String(index) === head ? withLeaf(item, rest, text) : item));
  return { ...(value as Record<string, unknown>), [head]: withLeaf((value as Record<string, unknown>)[head], rest, text) };
}

async function rowsHolding(marker: string): Promise<string[]> {
  const tables = await t.store.db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`);
  const holding: string[] = [];
  for (const { table_name: table } of tables) {
    const [row] = await t.store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" t WHERE t::text LIKE $1`, [`%${marker}%`]);
    if ((row?.n ?? 0) > 0) holding.push(table);
  }
  return holding;
}

const hasUnstorable = (value: unknown): boolean => stringLeaves(value).length > 0 && JSON.stringify(value) !== JSON.stringify(value, (_, v: unknown) => (typeof v === "string" && !isStorableText(v) ? "" : v));

describe("text storage cannot hold, in every documented request field", () => {
  it("a body's strings: a 400 naming the field and nothing stored, or the text made storable; never a 5xx", async () => {
    let sent = 0;
    for (const { method, path, operation } of operations()) {
      const mediaType = Object.keys(operation.requestBody?.content ?? {})[0];
      if (mediaType !== "application/json") continue;
      const pointer = `/paths/${pointerSegment(path)}/${method}/requestBody/content/${pointerSegment(mediaType)}/schema`;
      const [body] = fc.sample(validValue(contract, pointer), { numRuns: 1, seed: 57 });
      for (const leaf of stringLeaves(body)) {
        for (const [what, character] of Object.entries(UNSTORABLE)) {
          const marker = `HYGIENEPROBE${++probes}X`;
          const answer = await t.call(method.toUpperCase(), concretePath(path), { token: credentials(operation), body: withLeaf(body, leaf ? leaf.split(".") : [], `${marker}${character}`) });
          sent++;
          const where = `${method.toUpperCase()} ${path} ${leaf} (${what}): ${answer.status} ${JSON.stringify(answer.body)}`;
          expect(answer.status, where).toBeLessThan(500);
          if (answer.status === 400 && JSON.stringify(answer.body).includes("U+0000")) {
            expect(JSON.stringify(answer.body.details), where).toContain(leaf);
            expect(await rowsHolding(marker), where).toEqual([]);
          }
          if (answer.status < 300) expect(hasUnstorable(answer.body), where).toBe(false);
        }
      }
    }
    expect(sent).toBeGreaterThan(50);
  });

  it("a query parameter: a 400 naming it, never a 5xx", async () => {
    let sent = 0;
    for (const { method, path, operation } of operations()) {
      const query = (operation.parameters ?? []).filter((parameter: any) => parameter.in === "query");
      for (const parameter of query) {
        for (const encoded of ["%00", "%ED%A0%80"]) {
          const answer = await t.call(method.toUpperCase(), `${concretePath(path)}?${parameter.name}=a${encoded}b`, { token: credentials(operation) });
          sent++;
          expect(answer.status, `${method} ${path} ?${parameter.name}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
        }
      }
    }
    expect(sent).toBeGreaterThan(20);
    const refused = await t.call("GET", `/v1/analytics/${known.projectId}/visitors?pathPrefix=/a%00b`, { token: known.key });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/pathPrefix: must not contain NUL/);
  });

  it("a robots.txt version: NUL dropped from its lines, as the format has no use for it", async () => {
    const answer = await t.call("POST", `/admin/projects/${known.projectId}/robots/versions`, { token: ADMIN_TOKEN, body: { body: "User-agent: *\u0000\nDisallow: /private\n" } });
    expect(answer.status).toBe(201);
    expect(answer.body.body).toBe("User-agent: *\nDisallow: /private\n");
  });
});

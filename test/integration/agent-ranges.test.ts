import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vendoredRangeLists } from "../../src/app/analytics/classify/agent-ranges.js";
import { isolateGitHub } from "../helpers/github.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

// An address OpenAI's GPTBot list in this release does not have: spoofed until a refresh publishes it.
const NEW_GPTBOT_ADDRESS = "192.0.2.77";
const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";

let t: TestServer;
beforeAll(async () => {
  isolateGitHub();
  t = await startTestServer();
});
afterAll(async () => {
  nock.cleanAll();
  await t.close();
});

async function gptbotVerification(projectId: string, key: string, day: string): Promise<Record<string, number>> {
  const sent = await t.call("POST", `/v1/analytics/${projectId}/hits`, { token: key, body: { hits: [{ timestamp: `${day}T10:00:00Z`, path: "/guide", ip: NEW_GPTBOT_ADDRESS, userAgent: GPTBOT }] } });
  expect(sent.status).toBe(202);
  const agents = await t.call("GET", `/v1/analytics/${projectId}/agents?dateFrom=${day}`, { token: key });
  return agents.body.agents.find((a: { agent: string }) => a.agent === "GPTBot")?.verification;
}

describe("inkwell agents refresh: operators' address lists, fetched by the server", () => {
  it("replaces each list that fetches and parses, keeps the others, and verifies against the new one at once", async () => {
    const { projectId, key } = await t.newProject();
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(await gptbotVerification(projectId, key, day)).toEqual({ verified: 0, spoofed: 1, unverifiable: 0 });

    const lists = vendoredRangeLists();
    for (const { source } of lists) {
      const url = new URL(source.url);
      const scope = nock(url.origin).get(url.pathname);
      if (source.id === "openai-gptbot") scope.reply(200, { creationTime: "2026-11-20T00:00:00.000000", prefixes: [{ ipv4Prefix: "192.0.2.0/24" }] });
      else if (source.id === "openai-searchbot") scope.reply(503, "busy");
      else if (source.id === "perplexity-bot") scope.reply(200, { prefixes: [{ ipv4Prefix: "not a prefix" }] });
      else scope.reply(200, "<html>moved</html>");
    }
    const refreshed = await t.call("POST", "/admin/agents/refresh", { token: ADMIN_TOKEN });
    expect(refreshed.status).toBe(200);
    const byId = Object.fromEntries(refreshed.body.results.map((r: { id: string }) => [r.id, r]));
    expect(byId["openai-gptbot"]).toMatchObject({ ok: true, prefixes: 1, asOf: "2026-11-20T00:00:00.000000" });
    expect(byId["openai-searchbot"]).toMatchObject({ ok: false, error: "HTTP 503" });
    expect(byId["perplexity-bot"]).toMatchObject({ ok: false, error: expect.stringMatching(/not a range list/) });
    expect(refreshed.body.results.filter((r: { ok: boolean }) => r.ok)).toHaveLength(1);

    // The new list is in use here at once; the failed ones keep the release's copy.
    expect(await gptbotVerification(projectId, key, day)).toEqual({ verified: 1, spoofed: 1, unverifiable: 0 });
    const ranges = await t.call("GET", "/admin/agents/ranges", { token: ADMIN_TOKEN });
    const inUse = Object.fromEntries(ranges.body.lists.map((l: { id: string }) => [l.id, l]));
    expect(inUse["openai-gptbot"]).toMatchObject({ prefixes: 1, asOf: "2026-11-20T00:00:00.000000", agents: ["GPTBot"] });
    expect(inUse["perplexity-bot"].prefixes).toBe(lists.find((l) => l.source.id === "perplexity-bot")?.document.prefixes.length);
  });

  it("is for the operator only", async () => {
    const { key } = await t.newProject();
    expect((await t.call("POST", "/admin/agents/refresh", { token: key })).status).toBe(401);
    expect((await t.call("GET", "/admin/agents/ranges")).status).toBe(401);
  });
});

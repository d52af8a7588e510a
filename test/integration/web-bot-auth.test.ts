import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolateGitHub } from "../helpers/github.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { CHATGPT_AGENT_ORIGIN, CHROME_UA, KEY_DIRECTORY, signedRequestFields } from "../helpers/web-bot-auth.js";

let t: TestServer;
beforeAll(async () => {
  isolateGitHub();
  t = await startTestServer();
});
afterAll(async () => {
  nock.cleanAll();
  await t.close();
});

describe("Web Bot Auth over the hits API: the operator's key directory decides, replays are caught", () => {
  it("counts a valid signature as its agent, verified, and a wrong key, a replay or a forged claim as spoofed", async () => {
    const directory = nock(CHATGPT_AGENT_ORIGIN).get("/.well-known/http-message-signatures-directory").reply(200, KEY_DIRECTORY, { "cache-control": "max-age=3600" });
    const { projectId, key } = await t.newProject();
    const now = Date.now();
    const hit = (ip: string, fields: object, path = "/guide") => ({ timestamp: now - 1_000, path, ip, userAgent: CHROME_UA, ...fields });
    const valid = await signedRequestFields({ path: "/guide" });
    const validToo = await signedRequestFields({ path: "/api" });
    const wrongKey = await signedRequestFields({ key: "stranger" });
    const expired = await signedRequestFields({ created: now - 30 * 60_000, validForMs: 60_000 });

    const first = await t.call("POST", `/v1/analytics/${projectId}/hits`, {
      token: key,
      body: { hits: [hit("198.51.100.1", valid), hit("198.51.100.2", validToo, "/api"), hit("198.51.100.2", validToo, "/api"), hit("198.51.100.3", wrongKey), hit("198.51.100.4", expired)] },
    });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ accepted: 5, rejected: [] });
    // Captured and sent again later by someone else: same signature, still within its validity.
    const replay = await t.call("POST", `/v1/analytics/${projectId}/hits`, { token: key, body: { hits: [hit("203.0.113.9", valid)] } });
    expect(replay.body).toMatchObject({ accepted: 1 });

    const today = new Date(now).toISOString().slice(0, 10);
    const agents = await t.call("GET", `/v1/analytics/${projectId}/agents?dateFrom=${today}`, { token: key });
    expect(agents.status).toBe(200);
    const chatgpt = agents.body.agents.find((a: { agent: string }) => a.agent === "ChatGPT Agent");
    expect(chatgpt).toMatchObject({ operator: "OpenAI", category: "assistant", views: 2, visitors: 2, verification: { verified: 2, spoofed: 3, unverifiable: 0 } });

    // Expired proves nothing: that view is what its User-Agent says, a person's; the spoofed ones are bots.
    const visitors = await t.call("GET", `/v1/analytics/${projectId}/visitors?dateFrom=${today}`, { token: key });
    expect(visitors.body.totals).toMatchObject({ human: 1, ai: 2, bot: 3 });
    expect(directory.isDone()).toBe(true);
  });

  it("refuses a signed hit that does not say which host it was for", async () => {
    const { projectId, key } = await t.newProject();
    const { host, ...fields } = await signedRequestFields();
    expect(host).toBeTruthy();
    const sent = await t.call("POST", `/v1/analytics/${projectId}/hits`, {
      token: key,
      body: { hits: [{ timestamp: Date.now(), path: "/guide", ip: "198.51.100.1", userAgent: CHROME_UA, ...fields }, { timestamp: Date.now(), path: `https://${host}/guide`, ip: "198.51.100.1", userAgent: CHROME_UA, ...fields }] },
    });
    expect(sent.status).toBe(202);
    expect(sent.body.accepted).toBe(1);
    expect(sent.body.rejected).toEqual([{ index: 0, error: expect.stringMatching(/host.*required with signatureAgent/) }]);
  });
});

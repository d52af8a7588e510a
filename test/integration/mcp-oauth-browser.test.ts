import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.js";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "../helpers/server.js";

// The consent step of MCP's OAuth in a real browser (mcp-oauth.test.ts drives it over HTTP): sign
// in from the authorize URL with the keyboard, pick the scopes, approve, and land on the client's
// redirect URI with a code, which the page's Content-Security-Policy (form-action) must let through.

let t: TestServer;
let browser: Browser;
let callback: Server;
let redirectUri: string;
const arrived: URL[] = [];

beforeAll(async () => {
  callback = createServer((req, res) => {
    arrived.push(new URL(req.url ?? "/", redirectUri));
    res.writeHead(200, { "Content-Type": "text/plain" }).end("You can close this tab.");
  });
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
  redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  t = await startTestServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
  callback?.closeAllConnections();
  await new Promise((resolve) => callback?.close(resolve));
});

describe("MCP's OAuth consent in a browser", () => {
  it("signs in from the authorize URL, approves the chosen scopes and reaches the client's redirect URI with a code that works", async () => {
    const { projectId } = await t.newProject("acme/browser-oauth");
    const client = (await (await fetch(`${t.url}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_name: "Desktop assistant", redirect_uris: [redirectUri] }) })).json()) as { client_id: string };
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${t.url}/authorize`);
    const params = { response_type: "code", client_id: client.client_id, redirect_uri: redirectUri, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256", state: "b1", scope: "analytics", resource: `${t.url}/mcp` };
    for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);

    const page = await browser.newPage();
    await page.goto(authorize.href);
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    await page.getByLabel("Operator token").fill(ADMIN_TOKEN);
    await Promise.all([page.waitForURL(/\/dashboard\/oauth\/authorize\?request=/), page.keyboard.press("Enter")]);
    expect(await page.textContent("#consent-client")).toBe("Desktop assistant");
    expect(await page.textContent("#consent-redirect-host")).toBe(new URL(redirectUri).host);
    // Asked for analytics: that is what is checked; the person adds nothing.
    expect(await page.isChecked("input[name=scope-analytics]")).toBe(true);
    expect(await page.isChecked("input[name=scope-jobs]")).toBe(false);
    await page.selectOption("#consent-project", projectId);
    await Promise.all([page.waitForURL((url) => url.href.startsWith(redirectUri)), page.click("button[value=approve]")]);
    // The callback's own request (the browser may ask the same server for a favicon after it).
    const back = arrived.find((url) => url.pathname === "/callback")!;
    expect(back.searchParams.get("state")).toBe("b1");
    expect(back.searchParams.get("iss")).toBe(t.url);

    const exchanged = await fetch(`${t.url}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", client_id: client.client_id, code: back.searchParams.get("code")!, code_verifier: verifier, redirect_uri: redirectUri }).toString(),
    });
    const tokens = (await exchanged.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe("analytics");
    const listed = await fetch(`${t.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.access_token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(listed.status).toBe(200);
    await page.close();
  });
});

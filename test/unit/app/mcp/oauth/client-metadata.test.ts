import { readFileSync } from "node:fs";
import https, { createServer, type Server } from "node:https";
import { syncBuiltinESMExports } from "node:module";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchClientMetadataDocument, isMetadataDocumentUrl, MAX_DOCUMENT_BYTES, redirectRefusal } from "../../../../../src/app/mcp/oauth/client-metadata.js";

const TLS = { cert: readFileSync("test/fixtures/tls/loopback-cert.pem"), key: readFileSync("test/fixtures/tls/loopback-key.pem") };
const REDIRECT = "https://assistant.example/cb";

let server: Server;
let base: string;
const originalRequest = https.request;

beforeAll(async () => {
  server = createServer(TLS, (req, res) => {
    const self = `${base}${req.url}`;
    const json = (body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(200, { "Content-Type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.url === "/good.json") json({ client_id: self, client_name: "Good", redirect_uris: [REDIRECT] }, { "Cache-Control": "public, max-age=120" });
    else if (req.url === "/forever.json") json({ client_id: self, redirect_uris: [REDIRECT] }, { "Cache-Control": "max-age=99999999" });
    else if (req.url === "/secret.json") json({ client_id: self, redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_post" });
    else if (req.url === "/no-redirects.json") json({ client_id: self, redirect_uris: [] });
    else if (req.url === "/large.json") json({ client_id: self, redirect_uris: [REDIRECT], padding: "x".repeat(MAX_DOCUMENT_BYTES) });
    else if (req.url === "/moved.json") res.writeHead(302, { Location: "/good.json" }).end();
    else if (req.url === "/text.json") res.writeHead(200).end("not json");
    else if (req.url === "/nul.json") json({ client_id: self, client_name: "a\u0000b", redirect_uris: [REDIRECT] });
    else if (req.url === "/slow.json") setTimeout(() => json({ client_id: self, redirect_uris: [REDIRECT] }), 2000);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Trust the test's certificate in the request's own options (what the module calls is the builtin's export).
  https.request = ((url: unknown, options: unknown, callback: unknown) =>
    (originalRequest as (...args: unknown[]) => unknown)(url, typeof options === "object" && options !== null ? { ...options, ca: TLS.cert } : options, callback)) as typeof https.request;
  syncBuiltinESMExports();
});

afterAll(async () => {
  https.request = originalRequest;
  syncBuiltinESMExports();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("redirectRefusal", () => {
  it("takes any https host, http on loopback and an app's scheme when the operator lists no hosts", () => {
    for (const uri of [REDIRECT, "http://localhost:6274/cb", "http://127.0.0.1:33418/", "cursor://anysphere.cursor-mcp/oauth/callback"]) expect(redirectRefusal(uri, null), uri).toBeNull();
    expect(redirectRefusal("http://assistant.example/cb", null)).toMatch(/plain http is allowed only on this machine/);
    expect(redirectRefusal("javascript:alert(1)", null)).toMatch(/javascript: URLs cannot be redirect URIs/);
    expect(redirectRefusal("https://assistant.example/cb#x", null)).toMatch(/fragment/);
    expect(redirectRefusal("not a url", null)).toMatch(/is not a URL/);
  });

  it("takes only the listed hosts when the operator lists some", () => {
    expect(redirectRefusal("https://claude.ai/api/mcp/auth_callback", ["claude.ai"])).toBeNull();
    expect(redirectRefusal("https://CLAUDE.ai/cb", ["claude.ai"])).toBeNull();
    expect(redirectRefusal("https://evil.example/cb", ["claude.ai"])).toMatch(/INKWELL_OAUTH_REDIRECT_HOSTS/);
    expect(redirectRefusal("http://localhost:1234/cb", ["claude.ai"])).toMatch(/INKWELL_OAUTH_REDIRECT_HOSTS/);
  });
});

describe("isMetadataDocumentUrl", () => {
  it("is an https URL with a path, no fragment or credentials", () => {
    expect(isMetadataDocumentUrl("https://app.example/oauth/client.json")).toBe(true);
    for (const id of ["https://app.example/", "http://app.example/client.json", "https://u:p@app.example/c.json", "https://app.example/c.json#x", "3f1c-uuid"]) expect(isMetadataDocumentUrl(id), id).toBe(false);
  });
});

describe("fetchClientMetadataDocument", () => {
  it("reads a document that names itself, keeping it for its max-age within a minute and a day", async () => {
    const good = await fetchClientMetadataDocument(`${base}/good.json`, { allowPrivate: true });
    expect(good).toMatchObject({ clientName: "Good", redirectUris: [REDIRECT], cacheSeconds: 120 });
    expect((await fetchClientMetadataDocument(`${base}/forever.json`, { allowPrivate: true })).cacheSeconds).toBe(86_400);
  });

  it("refuses what is not a public client's document, saying why", async () => {
    const refusal = (path: string, timeoutMs?: number) => fetchClientMetadataDocument(`${base}${path}`, { allowPrivate: true, ...(timeoutMs ? { timeoutMs } : {}) }).then(() => "accepted", (error: Error) => error.message);
    expect(await refusal("/secret.json")).toMatch(/Inkwell takes public clients \('none', with PKCE\) only/);
    expect(await refusal("/no-redirects.json")).toMatch(/lists no redirect_uris/);
    expect(await refusal("/large.json")).toMatch(new RegExp(`is larger than ${MAX_DOCUMENT_BYTES} bytes`));
    expect(await refusal("/moved.json")).toMatch(/answered 302 \(a redirect: a metadata document is read at its own URL only\)/);
    expect(await refusal("/text.json")).toMatch(/is not JSON/);
    expect(await refusal("/nul.json")).toMatch(/must not contain NUL/);
    expect(await refusal("/missing.json")).toMatch(/answered 404/);
    expect(await refusal("/slow.json", 100)).toMatch(/no answer within 100 ms/);
  });

  it("refuses a private address unless the operator allows internal ones", async () => {
    await expect(fetchClientMetadataDocument(`${base}/good.json`, { allowPrivate: false })).rejects.toThrow(
      /127\.0\.0\.1 is a loopback address: client metadata document requests go to public addresses only \(the operator allows internal ones with INKWELL_WEBHOOKS_ALLOW_PRIVATE=true\)/,
    );
    await expect(fetchClientMetadataDocument("http://app.example/c.json", { allowPrivate: true })).rejects.toThrow(/not an https URL with a path/);
  });
});

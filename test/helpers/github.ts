import { createHmac, generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import nock from "nock";
import { pino, type Logger } from "pino";
import { Probot, ProbotOctokit } from "probot";
import { GitHubApi } from "../../src/app/forges/github/api.js";

export const APP_ID = "123";
export const WEBHOOK_SECRET = "webhook-secret-for-tests";
export const APP_SLUG = "inkwell-docs";

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

/** Environment of a server with GitHub App credentials. */
export const appEnv = (extra: Record<string, string> = {}) => ({ APP_ID, PRIVATE_KEY: privateKey, WEBHOOK_SECRET, ...extra });

/**
 * A real Probot (real Octokit, real auth, real retries) whose HTTP calls nock answers. Two of
 * Octokit's waits are for GitHub's sake, not the code's: retries back off 1 s × attempt² (14 s for
 * a request that always fails) and the throttle spaces writes a second apart. Here the backoff base
 * is 1 ms and the throttle is off, so a test sees every retry and write without waiting for them.
 */
export function fakeGitHubApp(log: Logger = pino({ level: "silent" })) {
  const Octokit = ProbotOctokit.defaults((options: Record<string, any>) => ({ ...options, retry: { retryAfterBaseValue: 1 }, throttle: { ...options.throttle, enabled: false } }));
  const probot = new Probot({ appId: Number(APP_ID), privateKey, secret: WEBHOOK_SECRET, log: log as never, Octokit });
  return { probot, api: new GitHubApi(probot) };
}

export const GITHUB_API = "https://api.github.com";

/** GitHub only through nock; loopback (the server under test, the OIDC issuer) stays reachable. */
export function isolateGitHub(): void {
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
}

/** Installation tokens and the App's identity, answered as often as asked; returns the token requests' bodies. */
export function nockAppAuth(installationId: number): Record<string, unknown>[] {
  const requests: Record<string, unknown>[] = [];
  nock(GITHUB_API)
    .persist()
    .post(`/app/installations/${installationId}/access_tokens`, (body: Record<string, unknown>) => {
      requests.push(body);
      return true;
    })
    .reply(201, () => ({ token: `ghs_inst_${installationId}`, expires_at: new Date(Date.now() + 3_600_000).toISOString(), permissions: { contents: "write" } }));
  nock(GITHUB_API).persist().get("/app").reply(200, { id: Number(APP_ID), slug: APP_SLUG, name: "Inkwell Docs" });
  return requests;
}

export function sign(body: string, secret = WEBHOOK_SECRET): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

let deliveries = 0;

/** Delivers a webhook to the server as GitHub does: signed, with event name and delivery id. */
export async function deliver(serverUrl: string, event: string, payload: unknown, deliveryId = `delivery-${++deliveries}-${Date.now()}`) {
  const body = JSON.stringify(payload);
  const res = await fetch(`${serverUrl}/api/github/webhooks`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-GitHub-Event": event, "X-GitHub-Delivery": deliveryId, "X-Hub-Signature-256": sign(body) },
    body,
  });
  return { status: res.status, deliveryId };
}

/** A GitHub-Actions-like OIDC issuer on loopback: discovery document, JWKS, and a signer. */
export async function startOidcIssuer() {
  const { publicKey, privateKey: signingKey } = await generateKeyPair("RS256");
  const other = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  let url = "";
  /** What is asked of the issuer, in order; and what of it answers 503 (an outage). */
  const requests: string[] = [];
  const down = new Set<string>();
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    if (down.has(req.url ?? "")) {
      res.writeHead(503).end();
    } else if (req.url === "/.well-known/openid-configuration") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ issuer: url, jwks_uri: `${url}/.well-known/jwks` }));
    } else if (req.url === "/.well-known/jwks") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  return {
    url,
    requests,
    /** Paths that answer 503 until taken out again. */
    down,
    /** A token like the runner's; override claims or options to make it wrong. */
    async token(claims: Record<string, unknown>, options: { audience: string; issuer?: string; expiresIn?: string | number; wrongKey?: boolean }) {
      return new SignJWT({ ref: "refs/heads/main", run_id: "777", ...claims })
        .setProtectedHeader({ alg: "RS256", kid: "test-key" })
        .setIssuer(options.issuer ?? url)
        .setAudience(options.audience)
        .setIssuedAt(Math.floor(Date.now() / 1000) - 60)
        .setExpirationTime(options.expiresIn ?? "10m")
        .sign(options.wrongKey ? other.privateKey : signingKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

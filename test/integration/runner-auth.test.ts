import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAILED_FETCH_MEMORY_MS } from "../../src/app/forges/oidc-keys.js";
import { appEnv, fakeGitHubApp, isolateGitHub, startOidcIssuer } from "../helpers/github.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const PUBLIC_URL = "https://inkwell.test";
const DISCOVERY = "/.well-known/openid-configuration";
const JWKS = "/.well-known/jwks";

let t: TestServer;
let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
let now = Date.parse("2025-06-02T10:00:00Z");

beforeAll(async () => {
  isolateGitHub();
  issuer = await startOidcIssuer();
  t = await startTestServer({ env: appEnv({ PUBLIC_URL, INKWELL_OIDC_ISSUER: issuer.url }), github: fakeGitHubApp(), clock: () => now });
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});

/** A heartbeat for a job that does not exist: past authentication it is a 404, so 401 and 503 are about the token. */
async function heartbeat(authorization: string) {
  const res = await fetch(`${t.url}/v1/runner/heartbeat`, {
    method: "POST",
    headers: { Authorization: authorization, "Content-Type": "application/json" },
    body: JSON.stringify({ jobId: "nosuchjob", runAttempt: 1 }),
  });
  return { status: res.status, error: ((await res.json()) as { error: string }).error };
}

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

describe("runner tokens", () => {
  it("refuses what cannot be a token of the issuer with 401, asking the issuer nothing", async () => {
    const foreign = await issuer.token({ repository: "acme/docs" }, { audience: PUBLIC_URL, issuer: "https://token.elsewhere.test" });
    const cases: [string, RegExp][] = [
      ["not-a-jwt", /not a JWT/],
      ["abc.def.ghi", /not a JWT/],
      [`${b64({ alg: "RS256" })}.${b64({ iss: issuer.url })}`, /not a JWT/],
      [`${b64({ alg: "RS256" })}.${b64({ iss: issuer.url })}.`, /not a JWT/],
      [`${b64({ alg: "RS256" })}.${b64({ iss: issuer.url })}.c2ln.c2ln`, /not a JWT/],
      [`${b64({ typ: "JWT" })}.${b64({ iss: issuer.url })}.c2ln`, /not a JWT/],
      [`${b64({ alg: "RS256" })}.${b64({ sub: "x" })}.c2ln`, /not a JWT/],
      [`${b64({ alg: "RS256" })}.${b64("null")}.c2ln`, /not a JWT/],
      [`${b64({ alg: "RS256" })}.${b64("{")}.c2ln`, /not a JWT/],
      [`${b64({ alg: "HS256" })}.${b64({ iss: issuer.url })}.c2ln`, /signed with HS256/],
      [foreign, /not issued by the configured OIDC issuer/],
    ];
    for (const [token, message] of cases) {
      const res = await heartbeat(`Bearer ${token}`);
      expect(res.status, token).toBe(401);
      expect(res.error, token).toMatch(message);
    }
    expect(issuer.requests).toEqual([]);
  });

  it("remembers a failed fetch of the issuer's documents for a while instead of asking again on every request", async () => {
    const token = await issuer.token({ repository: "acme/docs" }, { audience: PUBLIC_URL });
    issuer.down.add(DISCOVERY);
    const first = await heartbeat(`Bearer ${token}`);
    expect(first.status).toBe(503);
    expect(first.error).toMatch(/Cannot fetch the OIDC signing keys.*HTTP 503.*try again in 10 s/);
    expect(issuer.requests).toEqual([DISCOVERY]);

    issuer.down.delete(DISCOVERY);
    now += FAILED_FETCH_MEMORY_MS - 1000;
    for (let i = 0; i < 3; i++) expect((await heartbeat(`Bearer ${token}`)).status).toBe(503);
    expect(issuer.requests).toEqual([DISCOVERY]);

    now += 1000;
    expect((await heartbeat(`Bearer ${token}`)).status).toBe(404);
    expect(issuer.requests).toEqual([DISCOVERY, DISCOVERY, JWKS]);
    // Found now: the keys are jose's to cache.
    expect((await heartbeat(`Bearer ${token}`)).status).toBe(404);
    expect(issuer.requests).toHaveLength(3);
  });
});

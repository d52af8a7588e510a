import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FAILED_FETCH_MEMORY_MS, KeysUnavailableError, OidcKeys } from "../../../../src/app/forges/oidc-keys.js";

const ISSUER = "https://token.issuer.test";
const DISCOVERY = `${ISSUER}/.well-known/openid-configuration`;
const JWKS = `${ISSUER}/keys`;

let token: string;
let jwks: { keys: unknown[] };

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" }] };
  token = await new SignJWT({}).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuer(ISSUER).setIssuedAt().setExpirationTime("1h").sign(privateKey);
});

/** The issuer at the HTTP edge: what was asked, and which URLs fail (503) or answer something else. */
let asked: string[];
let broken: Map<string, () => Response>;
const fakeFetch = (async (input: string | URL | Request) => {
  const url = String(input);
  asked.push(url);
  const breakage = broken.get(url);
  if (breakage) return breakage();
  if (url === DISCOVERY) return Response.json({ issuer: ISSUER, jwks_uri: JWKS });
  if (url === JWKS) return Response.json(jwks);
  return new Response("", { status: 404 });
}) as typeof fetch;

beforeEach(() => {
  asked = [];
  broken = new Map();
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2025-06-02T10:00:00Z") });
});
afterEach(() => vi.useRealTimers());

const keys = () => new OidcKeys(ISSUER, fakeFetch, () => Date.now());
const verify = (from: OidcKeys) => jwtVerify(token, from.getKey, { issuer: ISSUER });

describe("OidcKeys", () => {
  it("remembers a failed discovery for FAILED_FETCH_MEMORY_MS, then asks again", async () => {
    const from = keys();
    broken.set(DISCOVERY, () => new Response("", { status: 503 }));
    await expect(verify(from)).rejects.toThrow(KeysUnavailableError);
    await expect(verify(from)).rejects.toThrow(/openid-configuration: HTTP 503/);
    vi.advanceTimersByTime(FAILED_FETCH_MEMORY_MS - 1);
    await expect(verify(from)).rejects.toThrow(KeysUnavailableError);
    expect(asked).toEqual([DISCOVERY]);

    broken.clear();
    vi.advanceTimersByTime(1);
    await expect(verify(from)).resolves.toMatchObject({ payload: { iss: ISSUER } });
    expect(asked).toEqual([DISCOVERY, DISCOVERY, JWKS]);
  });

  it("remembers a failed or unusable key set the same way, and keeps what discovery found", async () => {
    const from = keys();
    broken.set(JWKS, () => Response.json({ not: "keys" }));
    await expect(verify(from)).rejects.toThrow(/keys is not a JSON Web Key Set/);
    await expect(verify(from)).rejects.toThrow(KeysUnavailableError);
    expect(asked).toEqual([DISCOVERY, JWKS]);

    broken.clear();
    vi.advanceTimersByTime(FAILED_FETCH_MEMORY_MS);
    await expect(verify(from)).resolves.toBeTruthy();
    expect(asked).toEqual([DISCOVERY, JWKS, JWKS]);
  });

  it("verifies with the keys it had when a refresh fails, asking the issuer again only after the failure is forgotten", async () => {
    const from = keys();
    await verify(from);
    expect(asked).toEqual([DISCOVERY, JWKS]);
    // jose's cache is 10 minutes old: the next verification refreshes it, and the issuer is down.
    vi.advanceTimersByTime(11 * 60_000);
    broken.set(JWKS, () => {
      throw new TypeError("fetch failed");
    });
    await expect(verify(from)).resolves.toBeTruthy();
    await expect(verify(from)).resolves.toBeTruthy();
    expect(asked).toEqual([DISCOVERY, JWKS, JWKS]);
    vi.advanceTimersByTime(FAILED_FETCH_MEMORY_MS);
    await expect(verify(from)).resolves.toBeTruthy();
    expect(asked).toEqual([DISCOVERY, JWKS, JWKS, JWKS]);
  });

  it("does not count a token signed by a key the issuer does not have as a fetch failure", async () => {
    const from = keys();
    const other = await generateKeyPair("RS256");
    const stranger = await new SignJWT({}).setProtectedHeader({ alg: "RS256", kid: "k2" }).setIssuer(ISSUER).sign(other.privateKey);
    await expect(jwtVerify(stranger, from.getKey)).rejects.toThrow(/no applicable key/i);
    await expect(verify(from)).resolves.toBeTruthy();
  });
});

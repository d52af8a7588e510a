import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { UnauthenticatedError, UpstreamError } from "../domain/errors.js";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";


export interface RunnerIdentity {
  /** owner/repo, as GitHub spells it. */
  repository: string;
  repositoryId: number | null;
  runId: string | null;
}

type Jwks = ReturnType<typeof createRemoteJWKSet>;

/**
 * Verifies GitHub Actions OIDC tokens: signature against the issuer's JWKS (found through its
 * discovery document, cached by jose and refreshed on unknown key ids), issuer, audience, expiry.
 */
export class OidcVerifier {
  #jwks: Promise<Jwks> | null = null;

  constructor(
    private readonly issuer: string,
    private readonly audience: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async verify(authorization: string | undefined): Promise<RunnerIdentity> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
    if (!token) throw unauthorized("send 'Authorization: Bearer <GitHub Actions OIDC token>'");
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.#keys(), {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: ["RS256"],
        clockTolerance: 30,
        requiredClaims: ["exp", "iat", "repository"],
      }));
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || error instanceof DiscoveryError) {
        this.#jwks = null;
        throw new UpstreamError(`Cannot fetch the OIDC signing keys of ${this.issuer}; try again`, "unavailable");
      }
      throw unauthorized(describe(error, this.audience));
    }
    const repository = payload.repository;
    if (typeof repository !== "string" || !repository.includes("/")) throw unauthorized("the token has no repository claim");
    const repositoryId = Number(payload.repository_id);
    return {
      repository,
      repositoryId: Number.isSafeInteger(repositoryId) ? repositoryId : null,
      runId: typeof payload.run_id === "string" ? payload.run_id : null,
    };
  }

  #keys(): Promise<Jwks> {
    this.#jwks ??= this.#discover().catch((error: unknown) => {
      this.#jwks = null;
      throw error;
    });
    return this.#jwks;
  }

  async #discover(): Promise<Jwks> {
    const url = `${withoutTrailingSlashes(this.issuer)}/.well-known/openid-configuration`;
    let jwksUri: unknown;
    try {
      const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      jwksUri = ((await response.json()) as { jwks_uri?: unknown }).jwks_uri;
    } catch (error) {
      throw new DiscoveryError(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof jwksUri !== "string") throw new DiscoveryError(`${url} has no jwks_uri`);
    return createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 10_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  }
}

class DiscoveryError extends Error {}

const unauthorized = (why: string) => new UnauthenticatedError(`Invalid runner token: ${why}`, "runner");

function describe(error: unknown, audience: string): string {
  if (error instanceof errors.JWTExpired) return "it has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return `its audience is not ${audience} (request the token with this audience)`;
    if (error.claim === "iss") return "it was not issued by the configured OIDC issuer";
    return `claim ${error.claim} is invalid`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) return "its signature does not verify";
  return "it is not a valid JWT";
}

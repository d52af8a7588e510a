import { errors, jwtVerify, type JWTPayload } from "jose";
import { UnauthenticatedError, UpstreamError } from "../../domain/errors.js";
import { KeysUnavailableError, OidcKeys } from "../oidc-keys.js";
import { claimedHeaderAndIssuer } from "../runner.js";

export interface RunnerIdentity {
  /** owner/repo, as GitHub spells it. */
  repository: string;
  repositoryId: number | null;
  runId: string | null;
}

/** GitHub's Actions tokens are RS256; nothing else is asked of the issuer's keys. */
const ALGORITHM = "RS256";


/**
 * Verifies GitHub Actions OIDC tokens: signature against the issuer's keys (`oidc-keys.ts`),
 * issuer, audience, expiry. What cannot be a token of this issuer is refused before its keys are
 * asked for, so a caller without one never makes this server reach the issuer.
 */
export class OidcVerifier {
  readonly #keys: OidcKeys;

  constructor(
    private readonly issuer: string,
    private readonly audience: string,
    fetchImpl: typeof fetch = fetch,
    private readonly clock: () => number = Date.now,
  ) {
    this.#keys = new OidcKeys(issuer, fetchImpl, clock);
  }

  async verify(authorization: string | undefined): Promise<RunnerIdentity> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
    if (!token) throw unauthorized("send 'Authorization: Bearer <GitHub Actions OIDC token>'");
    const claimed = claimedHeaderAndIssuer(token);
    if (!claimed) throw unauthorized("it is not a JWT (three base64url parts: a JSON header with alg, a JSON payload with iss, a signature)");
    if (claimed.alg !== ALGORITHM) throw unauthorized(`it is signed with ${claimed.alg}; GitHub Actions tokens are ${ALGORITHM}`);
    if (claimed.iss !== this.issuer) throw unauthorized("it was not issued by the configured OIDC issuer");
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.#keys.getKey, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: [ALGORITHM],
        clockTolerance: 30,
        requiredClaims: ["exp", "iat", "repository"],
      }));
    } catch (error) {
      if (error instanceof KeysUnavailableError) {
        const seconds = Math.max(1, Math.ceil((error.retryAt - this.clock()) / 1000));
        throw new UpstreamError(`Cannot fetch the OIDC signing keys of ${this.issuer} (${error.message}); try again in ${seconds} s`, "unavailable");
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
}

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

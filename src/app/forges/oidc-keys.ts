import { createLocalJWKSet, createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";

/**
 * How long a failed fetch of the issuer's discovery document or keys is remembered: until then a
 * token that needs them is answered at once, without another request to the issuer, so an outage
 * (or a caller who knows of one) cannot make each request wait on it. Shorter than the Action's
 * retries of a claim (about 15 s), so a blip does not fail a run.
 */
export const FAILED_FETCH_MEMORY_MS = 10_000;

const FETCH_TIMEOUT_MS = 10_000;

const discoverySchema = z.object({ jwks_uri: z.url() });
const keySetSchema = z.object({ keys: z.array(z.looseObject({})) });

/** The issuer's keys cannot be had now; `retryAt` (the clock's time) is when the issuer is asked again. */
export class KeysUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAt: number,
  ) {
    super(message);
  }
}

/** A fetch of the issuer's documents failed: network, status, or not the document it must be. */
class FetchFailure extends Error {}

type RemoteJwks = ReturnType<typeof createRemoteJWKSet>;

/**
 * An OIDC issuer's signing keys, as jwtVerify's key function: the JWKS found through the issuer's
 * discovery document (fetched once), cached by jose (10 minutes; refetched at most every 30 s for a
 * key id it does not know). A failed fetch is remembered for FAILED_FETCH_MEMORY_MS; meanwhile the
 * keys fetched before, if any, still verify (a failed refresh does not stop the runners).
 */
export class OidcKeys {
  #jwks: Promise<RemoteJwks> | null = null;
  #failure: { error: KeysUnavailableError; staleKeys: JWTVerifyGetKey | null } | null = null;

  constructor(
    private readonly issuer: string,
    private readonly fetchImpl: typeof fetch,
    private readonly clock: () => number,
  ) {}

  readonly getKey: JWTVerifyGetKey = async (header, token) => {
    const failure = this.#failure;
    if (failure && this.clock() < failure.error.retryAt) {
      if (failure.staleKeys) return failure.staleKeys(header, token);
      throw failure.error;
    }
    let jwks: RemoteJwks | null = null;
    try {
      jwks = await (this.#jwks ??= this.#discover());
      return await jwks(header, token);
    } catch (error) {
      if (!(error instanceof FetchFailure)) throw error;
      const known = jwks?.jwks();
      const staleKeys = known ? createLocalJWKSet(known) : null;
      this.#failure = { error: new KeysUnavailableError(error.message, this.clock() + FAILED_FETCH_MEMORY_MS), staleKeys };
      if (staleKeys) return staleKeys(header, token);
      throw this.#failure.error;
    }
  };

  async #discover(): Promise<RemoteJwks> {
    try {
      const url = `${withoutTrailingSlashes(this.issuer)}/.well-known/openid-configuration`;
      const { jwks_uri: jwksUri } = await this.#fetchJson(url, discoverySchema, "an OpenID discovery document", { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      return createRemoteJWKSet(new URL(jwksUri), {
        timeoutDuration: FETCH_TIMEOUT_MS,
        cooldownDuration: 30_000,
        cacheMaxAge: 600_000,
        [customFetch]: async (keysUrl, init) => Response.json(await this.#fetchJson(keysUrl, keySetSchema, "a JSON Web Key Set", init)),
      });
    } catch (error) {
      // Discovered once it works; until then each try after a failure is forgotten asks again.
      this.#jwks = null;
      throw error;
    }
  }

  async #fetchJson<S extends z.ZodType>(url: string, schema: S, what: string, init: RequestInit): Promise<z.output<S>> {
    let body: unknown;
    try {
      const response = await this.fetchImpl(url, init);
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      body = await response.json();
    } catch (error) {
      throw new FetchFailure(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new FetchFailure(`${url} is not ${what}`);
    return parsed.data;
  }
}

import { webcrypto, type Verifier } from "http-message-sig";
import { calculateJwkThumbprint, type JWK } from "jose";
import { z } from "zod";

/**
 * The public keys an agent operator publishes for Web Bot Auth, at
 * `{origin}/.well-known/http-message-signatures-directory` (draft-meunier-http-message-signatures-directory):
 * `{keys: [JWK]}`, each key optionally bounded by `nbf`/`exp` (seconds). Fetched only for the
 * origins of signature-agents.ts, never for an origin a request names, and cached per origin.
 */
export const DIRECTORY_PATH = "/.well-known/http-message-signatures-directory";

const jwkSchema = z
  .object({
    kty: z.enum(["OKP", "RSA"]),
    crv: z.string().optional(),
    x: z.string().optional(),
    n: z.string().optional(),
    e: z.string().optional(),
    kid: z.string().optional(),
    nbf: z.number().optional(),
    exp: z.number().optional(),
  })
  .loose();
const directorySchema = z.object({ keys: z.array(z.unknown()).max(100) }).loose();

export interface DirectoryKey {
  /** The RFC 7638 thumbprint (base64url SHA-256), which Web Bot Auth uses as the signature's `keyid`. */
  thumbprint: string;
  kid: string | undefined;
  notBefore: number | undefined;
  expires: number | undefined;
  verifier: Verifier;
}

export interface KeyDirectoryOptions {
  fetch?: typeof fetch;
  now?: () => number;
}

const FETCH_TIMEOUT_MS = 5_000;
const MAX_DIRECTORY_BYTES = 64 * 1024;
const DEFAULT_TTL_MS = 60 * 60_000;
const MIN_TTL_MS = 5 * 60_000;
const MAX_TTL_MS = 24 * 60 * 60_000;
/** After a failed fetch, the next try waits this long (the last good keys are used meanwhile). */
const RETRY_AFTER_MS = 60_000;
/** Keys whose directory cannot be fetched again are trusted this long past their cache time. */
const STALE_GRACE_MS = 24 * 60 * 60_000;

interface Cached {
  keys: DirectoryKey[];
  fresh: number;
  usableUntil: number;
  retryAt: number;
}

/** Each origin's keys, fetched once per cache period (Cache-Control max-age, clamped) however many views ask at once. */
export class KeyDirectories {
  readonly #cache = new Map<string, Cached>();
  readonly #inflight = new Map<string, Promise<DirectoryKey[] | null>>();
  readonly #fetch: typeof fetch;
  readonly #now: () => number;

  constructor(options: KeyDirectoryOptions = {}) {
    this.#fetch = options.fetch ?? fetch;
    this.#now = options.now ?? Date.now;
  }

  /** The origin's keys; null when they were never fetched successfully (verification is then impossible, not failed). */
  async keysOf(origin: string): Promise<DirectoryKey[] | null> {
    const now = this.#now();
    const cached = this.#cache.get(origin);
    if (cached && (cached.fresh > now || cached.retryAt > now)) return cached.usableUntil > now ? cached.keys : null;
    let pending = this.#inflight.get(origin);
    if (!pending) {
      pending = this.#load(origin, cached).finally(() => this.#inflight.delete(origin));
      this.#inflight.set(origin, pending);
    }
    return pending;
  }

  async #load(origin: string, cached: Cached | undefined): Promise<DirectoryKey[] | null> {
    try {
      const response = await this.#fetch(new URL(DIRECTORY_PATH, origin), {
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        headers: { accept: "application/http-message-signatures-directory+json, application/json" },
        redirect: "error",
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const text = await response.text();
      if (text.length > MAX_DIRECTORY_BYTES) throw new Error("directory too large");
      const keys = await importKeys(directorySchema.parse(JSON.parse(text)).keys);
      const now = this.#now();
      const fresh = now + ttlOf(response.headers.get("cache-control"));
      this.#cache.set(origin, { keys, fresh, usableUntil: fresh + STALE_GRACE_MS, retryAt: 0 });
      return keys;
    } catch {
      const now = this.#now();
      const keep = cached ?? { keys: [], fresh: 0, usableUntil: 0, retryAt: 0 };
      this.#cache.set(origin, { ...keep, retryAt: now + RETRY_AFTER_MS });
      return keep.usableUntil > now ? keep.keys : null;
    }
  }
}

function ttlOf(cacheControl: string | null): number {
  const maxAge = cacheControl?.match(/(?:^|,)\s*max-age\s*=\s*"?(\d+)/i)?.[1];
  const ms = maxAge === undefined ? DEFAULT_TTL_MS : Number(maxAge) * 1000;
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, ms));
}

/** The usable keys of a directory; a key of a type Web Bot Auth does not sign with is skipped, not fatal. */
async function importKeys(entries: unknown[]): Promise<DirectoryKey[]> {
  const keys: DirectoryKey[] = [];
  for (const entry of entries) {
    const parsed = jwkSchema.safeParse(entry);
    if (!parsed.success) continue;
    const { nbf, exp, kid, ...jwk } = parsed.data;
    const algorithm = jwk.kty === "OKP" && jwk.crv === "Ed25519" ? "ed25519" : jwk.kty === "RSA" ? "rsa-pss-sha512" : null;
    if (!algorithm) continue;
    try {
      const params = algorithm === "ed25519" ? { name: "Ed25519" } : { name: "RSA-PSS", hash: "SHA-512" };
      const publicJwk = algorithm === "ed25519" ? { kty: "OKP", crv: "Ed25519", x: jwk.x } : { kty: "RSA", n: jwk.n, e: jwk.e };
      const key = await crypto.subtle.importKey("jwk", publicJwk, params, true, ["verify"]);
      keys.push({ thumbprint: await calculateJwkThumbprint(publicJwk as JWK, "sha256"), kid, notBefore: nbf, expires: exp, verifier: webcrypto.verifier(key) });
    } catch {
      continue;
    }
  }
  return keys;
}

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Queryable } from "../store/db.js";
import { queryOne, toIso, toIsoOrNull } from "../store/db.js";
import { grants, KEY_SCOPES, type KeyScope, type NeededScope } from "../../shared/key-scopes.js";
import { newId } from "./ids.js";
import { MissingScopeError, notFound, UnauthenticatedError } from "./errors.js";

export const KEY_PREFIX = "ink_";
const KEY_FORMAT = /^ink_[A-Za-z0-9_-]{43}$/;
/** How often a key's last-used time is written: bounded writes on the read path. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiKeyInfo {
  id: string;
  projectId: string;
  name: string | null;
  prefix: string;
  scopes: KeyScope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface KeyRow {
  id: string;
  project_id: string;
  name: string | null;
  prefix: string;
  secret_hash: string;
  scopes: string;
  created_at: unknown;
  last_used_at: unknown;
  revoked_at: unknown;
}

const toInfo = (row: KeyRow): ApiKeyInfo => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  prefix: row.prefix,
  scopes: scopesOf(row.scopes),
  createdAt: toIso(row.created_at),
  lastUsedAt: toIsoOrNull(row.last_used_at),
  revokedAt: toIsoOrNull(row.revoked_at),
});

/** A stored list read back; a name this version does not know (written by a later one) grants nothing here. */
const scopesOf = (stored: string): KeyScope[] => stored.split(",").filter((scope): scope is KeyScope => (KEY_SCOPES as readonly string[]).includes(scope));

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** A new key of the project, able to do `scopes` (validated by `keyScopesSchema` at the edge). */
export async function createApiKey(db: Queryable, projectId: string, name: string | null, scopes: readonly KeyScope[]) {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  const id = newId(16);
  const rows = await db.query<KeyRow>(
    `INSERT INTO api_keys (id, project_id, name, prefix, secret_hash, scopes) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [id, projectId, name, key.slice(0, KEY_PREFIX.length + 6), hashKey(key), scopes.join(",")],
  );
  return { key, info: toInfo(rows[0] as KeyRow) };
}

export async function listApiKeys(db: Queryable, projectId: string): Promise<ApiKeyInfo[]> {
  const rows = await db.query<KeyRow>(`SELECT * FROM api_keys WHERE project_id = $1 ORDER BY created_at, id`, [projectId]);
  return rows.map(toInfo);
}

export async function revokeApiKey(db: Queryable, projectId: string, keyId: string): Promise<ApiKeyInfo> {
  const row = await queryOne<KeyRow>(
    db,
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND project_id = $2 RETURNING *`,
    [keyId, projectId],
  );
  if (!row) throw notFound("API key");
  return toInfo(row);
}

const MAX_CACHED_KEYS = 10_000;

export interface KeyIdentity {
  projectId: string;
  keyId: string;
  /** Fixed when the key is made, so a remembered identity stays exact until revocation. */
  scopes: KeyScope[];
}

/** Refuses (403) what the key's scopes do not cover, naming the scope it needs; `doing` says what was asked, as a phrase. */
export function requireScope(scopes: readonly KeyScope[], needed: NeededScope, doing: string): void {
  if (grants(scopes, needed)) return;
  throw new MissingScopeError(
    `This API key may not ${doing}: that needs the ${needed} scope, and the key has ${scopes.join(", ") || "none"}. Use a key with the ${needed} (or all) scope; scopes are chosen when a key is created`,
    needed,
  );
}

export class ApiKeyVerifier {
  readonly #lastUsedWrites = new Map<string, number>();
  /** Active keys by hash. Only used when this process is the store's sole writer (see constructor). */
  readonly #active = new Map<string, KeyIdentity>();

  /**
   * @param exclusiveStore true when no other process can revoke keys in this store (embedded PGlite):
   *   then verified keys are remembered, and `forget` on revocation keeps the memory exact. With a
   *   shared PostgreSQL every request asks the database, so a revocation on any instance counts at once.
   */
  constructor(
    private readonly db: Queryable,
    private readonly exclusiveStore: boolean,
  ) {}

  /** The project a bearer key belongs to; refuses a missing, malformed, unknown or revoked key (UnauthenticatedError). */
  async projectFor(authorization: string | undefined): Promise<KeyIdentity> {
    const key = bearerToken(authorization);
    if (!key || !KEY_FORMAT.test(key)) throw unauthorized();
    const presented = hashKey(key);
    const known = this.#active.get(presented);
    if (known) {
      this.#touch(known.keyId);
      return known;
    }
    const row = await queryOne<Pick<KeyRow, "id" | "project_id" | "secret_hash" | "scopes" | "revoked_at">>(
      this.db,
      `SELECT id, project_id, secret_hash, scopes, revoked_at FROM api_keys WHERE secret_hash = $1`,
      [presented],
    );
    if (!row || !safeEqualHex(row.secret_hash, presented) || row.revoked_at !== null) throw unauthorized();
    const identity = { projectId: row.project_id, keyId: row.id, scopes: scopesOf(row.scopes) };
    if (this.exclusiveStore) {
      if (this.#active.size >= MAX_CACHED_KEYS) this.#active.delete(this.#active.keys().next().value as string);
      this.#active.set(presented, identity);
    }
    this.#touch(row.id);
    return identity;
  }

  /** Call when a key is revoked, before answering the revocation. */
  forget(keyId: string): void {
    for (const [hash, identity] of this.#active) if (identity.keyId === keyId) this.#active.delete(hash);
  }

  #touch(keyId: string) {
    const now = Date.now();
    if (now - (this.#lastUsedWrites.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.#lastUsedWrites.set(keyId, now);
    void this.db.query(`UPDATE api_keys SET last_used_at = now() WHERE id = $1`, [keyId]).catch(() => undefined);
  }
}

export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1] ?? null;
}

export function safeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Constant-time comparison of two secrets of any length (lengths are hidden by hashing first). */
export function safeEqualSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(createHash("sha256").update(presented).digest(), createHash("sha256").update(expected).digest());
}

export const unauthorized = () =>
  new UnauthenticatedError("Missing or invalid API key: send 'Authorization: Bearer ink_…' with an active key of this project", "api-key");

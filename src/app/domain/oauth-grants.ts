import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "../store/db.js";
import { queryOne, toIso, toIsoOrNull } from "../store/db.js";
import { grants as covers, NEEDED_SCOPES, type KeyScope, type NeededScope } from "../../shared/key-scopes.js";
import { safeEqualHex } from "./api-keys.js";
import { newId } from "./ids.js";
import { MissingScopeError, notFound } from "./errors.js";

// The store side of Inkwell as the OAuth authorization server of its MCP endpoint (docs/mcp-oauth.md):
// one function per question, like api-keys.ts. Codes and tokens are random, shown once, and stored
// only as SHA-256 hashes; a grant carries the same scopes as an API key and is revoked beside them.

export const ACCESS_TOKEN_PREFIX = "inkat_";
export const REFRESH_TOKEN_PREFIX = "inkrt_";
const CODE_PREFIX = "inkac_";
const ACCESS_TOKEN_FORMAT = /^inkat_[A-Za-z0-9_-]{43}$/;
const REFRESH_TOKEN_FORMAT = /^inkrt_[A-Za-z0-9_-]{43}$/;
const CODE_FORMAT = /^inkac_[A-Za-z0-9_-]{43}$/;
/** A person has this long to approve or deny on the consent page. */
const PENDING_SECONDS = 15 * 60;
/** An authorization code is exchanged at once by its client; this is the longest it waits. */
const CODE_SECONDS = 120;
/** How often a grant's last-used time is written: bounded writes on the MCP path. */
const LAST_USED_RESOLUTION_MS = 60_000;

const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");
const newSecret = (prefix: string) => prefix + randomBytes(32).toString("base64url");

export const isAccessToken = (token: string) => ACCESS_TOKEN_FORMAT.test(token);

/** Scopes as a grant stores them (comma separated, as keys); a name this version does not know grants nothing. */
export const grantScopesOf = (stored: string): NeededScope[] => stored.split(/[ ,]/).filter((scope): scope is NeededScope => (NEEDED_SCOPES as readonly string[]).includes(scope));

/** Refuses (403) what an assistant's grant does not cover, as requireScope does for a key, in the words of a grant. */
export function requireGrantedScope(scopes: readonly KeyScope[], needed: NeededScope, doing: string): void {
  if (covers(scopes, needed)) return;
  throw new MissingScopeError(
    `This assistant's access may not ${doing}: that needs the ${needed} scope, and it was granted ${scopes.join(", ") || "none"}. Connect the assistant again and approve the ${needed} scope (the project's API keys page lists and revokes its current access)`,
    needed,
  );
}

export type OAuthClientKind = "registered" | "metadata_document";

export interface OAuthClientRecord {
  clientId: string;
  kind: OAuthClientKind;
  clientName: string | null;
  redirectUris: string[];
  /** The client's metadata as registered or as its document says. */
  metadata: Record<string, unknown>;
  /** A metadata document: until when this reading of it is used. */
  expiresAt: string | null;
}

interface ClientRow {
  client_id: string;
  kind: OAuthClientKind;
  client_name: string | null;
  redirect_uris: string;
  metadata: string;
  expires_at: unknown;
}

const toClient = (row: ClientRow): OAuthClientRecord => ({
  clientId: row.client_id,
  kind: row.kind,
  clientName: row.client_name,
  redirectUris: JSON.parse(row.redirect_uris) as string[],
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  expiresAt: toIsoOrNull(row.expires_at),
});

/** A client registered through DCR, or a metadata document as just read (replacing the reading before). */
export async function saveOAuthClient(db: Queryable, client: Omit<OAuthClientRecord, "expiresAt">, cacheSeconds: number | null): Promise<OAuthClientRecord> {
  const rows = await db.query<ClientRow>(
    `INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, metadata, fetched_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL ELSE now() END, now() + make_interval(secs => $6::int))
     ON CONFLICT (client_id) DO UPDATE SET client_name = EXCLUDED.client_name, redirect_uris = EXCLUDED.redirect_uris, metadata = EXCLUDED.metadata,
       fetched_at = EXCLUDED.fetched_at, expires_at = EXCLUDED.expires_at
     RETURNING *`,
    [client.clientId, client.kind, client.clientName, JSON.stringify(client.redirectUris), JSON.stringify(client.metadata), cacheSeconds],
  );
  return toClient(rows[0] as ClientRow);
}

/** A client by its id, however old a metadata document's reading is (the caller decides whether to read it again). */
export async function findOAuthClient(db: Queryable, clientId: string): Promise<OAuthClientRecord | undefined> {
  const row = await queryOne<ClientRow>(db, `SELECT * FROM oauth_clients WHERE client_id = $1`, [clientId]);
  return row ? toClient(row) : undefined;
}

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  /** As the client asked (any words; the consent page offers the scopes Inkwell knows). */
  scopes: string[];
  resource: string;
}

/** An authorization request waiting for the person's decision; its id goes in the consent page's URL. Old ones are dropped on the way. */
export async function createPendingAuthorization(db: Queryable, request: AuthorizationRequest): Promise<string> {
  await db.query(`DELETE FROM oauth_authorizations WHERE expires_at < now() - interval '1 day'`);
  const id = newId(32);
  await db.query(
    `INSERT INTO oauth_authorizations (id, client_id, redirect_uri, code_challenge, state, scopes, resource, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8::int))`,
    [id, request.clientId, request.redirectUri, request.codeChallenge, request.state, request.scopes.join(" "), request.resource, PENDING_SECONDS],
  );
  return id;
}

export interface PendingAuthorization extends AuthorizationRequest {
  id: string;
  client: OAuthClientRecord;
}

interface PendingRow extends ClientRow {
  id: string;
  redirect_uri: string;
  code_challenge: string;
  state: string | null;
  scopes: string;
  resource: string;
}

/** A request still waiting for the person (not decided, not expired), with its client. */
export async function findPendingAuthorization(db: Queryable, id: string): Promise<PendingAuthorization | undefined> {
  const row = await queryOne<PendingRow>(
    db,
    `SELECT a.id, a.redirect_uri, a.code_challenge, a.state, a.scopes, a.resource, c.client_id, c.kind, c.client_name, c.redirect_uris, c.metadata, c.expires_at
     FROM oauth_authorizations a JOIN oauth_clients c ON c.client_id = a.client_id
     WHERE a.id = $1 AND a.code_hash IS NULL AND a.expires_at > now()`,
    [id],
  );
  if (!row) return undefined;
  return {
    id: row.id,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    state: row.state,
    scopes: row.scopes.split(" ").filter(Boolean),
    resource: row.resource,
    client: toClient(row),
  };
}

/**
 * The person approved: a grant of `scopes` on `projectId` for the request's client and resource, and
 * a one-time code for the client (returned, stored as a hash). Undefined when the request was
 * decided already or expired meanwhile.
 */
export async function approveAuthorization(
  db: Queryable,
  id: string,
  grant: { projectId: string; scopes: readonly NeededScope[]; grantedBy: string },
): Promise<{ code: string; grantId: string } | undefined> {
  const pending = await queryOne<{ client_id: string; resource: string }>(
    db,
    `SELECT client_id, resource FROM oauth_authorizations WHERE id = $1 AND code_hash IS NULL AND expires_at > now() FOR UPDATE`,
    [id],
  );
  if (!pending) return undefined;
  const grantId = newId(16);
  await db.query(`INSERT INTO oauth_grants (id, project_id, client_id, scopes, resource, granted_by) VALUES ($1, $2, $3, $4, $5, $6)`, [
    grantId,
    grant.projectId,
    pending.client_id,
    grant.scopes.join(","),
    pending.resource,
    grant.grantedBy,
  ]);
  const code = newSecret(CODE_PREFIX);
  await db.query(`UPDATE oauth_authorizations SET code_hash = $2, grant_id = $3, expires_at = now() + make_interval(secs => $4::int) WHERE id = $1`, [
    id,
    hashSecret(code),
    grantId,
    CODE_SECONDS,
  ]);
  return { code, grantId };
}

/** The person denied: the request is dropped. */
export async function denyAuthorization(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM oauth_authorizations WHERE id = $1 AND code_hash IS NULL`, [id]);
}

/** The PKCE challenge of a live, unused code of this client. */
export async function challengeForCode(db: Queryable, clientId: string, code: string): Promise<string | undefined> {
  if (!CODE_FORMAT.test(code)) return undefined;
  const row = await queryOne<{ code_challenge: string }>(
    db,
    `SELECT code_challenge FROM oauth_authorizations WHERE code_hash = $1 AND client_id = $2 AND used_at IS NULL AND expires_at > now()`,
    [hashSecret(code), clientId],
  );
  return row?.code_challenge;
}

export interface GrantUse {
  grantId: string;
  projectId: string;
  scopes: NeededScope[];
  resource: string;
}

/**
 * Spends a code (once: a second exchange finds nothing). A code presented again after it was used
 * revokes the grant it made, as OAuth 2.1 asks (whoever holds it has someone else's code).
 */
export async function spendCode(db: Queryable, clientId: string, code: string): Promise<(GrantUse & { redirectUri: string }) | undefined> {
  if (!CODE_FORMAT.test(code)) return undefined;
  const hash = hashSecret(code);
  const row = await queryOne<{ grant_id: string; redirect_uri: string; project_id: string; scopes: string; resource: string }>(
    db,
    `UPDATE oauth_authorizations a SET used_at = now() FROM oauth_grants g
     WHERE a.code_hash = $1 AND a.client_id = $2 AND a.used_at IS NULL AND a.expires_at > now() AND g.id = a.grant_id AND g.revoked_at IS NULL
     RETURNING a.grant_id, a.redirect_uri, g.project_id, g.scopes, g.resource`,
    [hash, clientId],
  );
  if (!row) {
    await db.query(
      `UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, now()) WHERE id = (SELECT grant_id FROM oauth_authorizations WHERE code_hash = $1 AND used_at IS NOT NULL)`,
      [hash],
    );
    return undefined;
  }
  return { grantId: row.grant_id, redirectUri: row.redirect_uri, projectId: row.project_id, scopes: grantScopesOf(row.scopes), resource: row.resource };
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

/** A new access token and refresh token of the grant; the grant's expired tokens are dropped on the way. */
export async function issueTokens(db: Queryable, grantId: string, lifetimes: { accessSeconds: number; refreshSeconds: number }): Promise<IssuedTokens> {
  await db.query(`DELETE FROM oauth_tokens WHERE grant_id = $1 AND expires_at < now()`, [grantId]);
  const accessToken = newSecret(ACCESS_TOKEN_PREFIX);
  const refreshToken = newSecret(REFRESH_TOKEN_PREFIX);
  await db.query(
    `INSERT INTO oauth_tokens (token_hash, grant_id, kind, expires_at) VALUES
       ($1, $3, 'access', now() + make_interval(secs => $4::int)), ($2, $3, 'refresh', now() + make_interval(secs => $5::int))`,
    [hashSecret(accessToken), hashSecret(refreshToken), grantId, lifetimes.accessSeconds, lifetimes.refreshSeconds],
  );
  return { accessToken, refreshToken, expiresIn: lifetimes.accessSeconds };
}

/** The grant a live, unspent refresh token of this client stands for, without spending it (to check a request before rotating). */
export async function grantForRefreshToken(db: Queryable, clientId: string, refreshToken: string): Promise<GrantUse | undefined> {
  if (!REFRESH_TOKEN_FORMAT.test(refreshToken)) return undefined;
  const row = await queryOne<{ grant_id: string; project_id: string; scopes: string; resource: string }>(
    db,
    `SELECT t.grant_id, g.project_id, g.scopes, g.resource FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
     WHERE t.token_hash = $1 AND t.kind = 'refresh' AND t.used_at IS NULL AND t.expires_at > now() AND g.client_id = $2 AND g.revoked_at IS NULL`,
    [hashSecret(refreshToken), clientId],
  );
  return row ? { grantId: row.grant_id, projectId: row.project_id, scopes: grantScopesOf(row.scopes), resource: row.resource } : undefined;
}

/**
 * Spends a refresh token of this client's live grant (once: rotation). One presented again after it
 * was spent revokes its grant (RFC 9700: a replayed refresh token means it leaked).
 */
export async function spendRefreshToken(db: Queryable, clientId: string, refreshToken: string): Promise<GrantUse | undefined> {
  if (!REFRESH_TOKEN_FORMAT.test(refreshToken)) return undefined;
  const hash = hashSecret(refreshToken);
  const row = await queryOne<{ grant_id: string; project_id: string; scopes: string; resource: string }>(
    db,
    `UPDATE oauth_tokens t SET used_at = now() FROM oauth_grants g
     WHERE t.token_hash = $1 AND t.kind = 'refresh' AND t.used_at IS NULL AND t.expires_at > now() AND g.id = t.grant_id AND g.client_id = $2 AND g.revoked_at IS NULL
     RETURNING t.grant_id, g.project_id, g.scopes, g.resource`,
    [hash, clientId],
  );
  if (!row) {
    await db.query(
      `UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, now()) WHERE id = (SELECT grant_id FROM oauth_tokens WHERE token_hash = $1 AND kind = 'refresh' AND used_at IS NOT NULL)`,
      [hash],
    );
    return undefined;
  }
  return { grantId: row.grant_id, projectId: row.project_id, scopes: grantScopesOf(row.scopes), resource: row.resource };
}

/** RFC 7009 for this client: a refresh token ends its grant; an access token ends itself. Anything else is no-op. */
export async function revokeClientToken(db: Queryable, clientId: string, token: string): Promise<void> {
  const hash = hashSecret(token);
  if (REFRESH_TOKEN_FORMAT.test(token)) {
    await db.query(
      `UPDATE oauth_grants g SET revoked_at = COALESCE(g.revoked_at, now()) FROM oauth_tokens t WHERE t.token_hash = $1 AND t.kind = 'refresh' AND g.id = t.grant_id AND g.client_id = $2`,
      [hash, clientId],
    );
  } else if (ACCESS_TOKEN_FORMAT.test(token)) {
    await db.query(`DELETE FROM oauth_tokens t USING oauth_grants g WHERE t.token_hash = $1 AND t.kind = 'access' AND g.id = t.grant_id AND g.client_id = $2`, [hash, clientId]);
  }
}

/**
 * The grant a live access token stands for; undefined for an unknown, expired or revoked one. Asks
 * the store on every call, so a revocation on any instance counts from the next request.
 */
export async function grantForAccessToken(db: Queryable, token: string): Promise<GrantUse | undefined> {
  if (!isAccessToken(token)) return undefined;
  const presented = hashSecret(token);
  const row = await queryOne<{ token_hash: string; grant_id: string; project_id: string; scopes: string; resource: string }>(
    db,
    `SELECT t.token_hash, t.grant_id, g.project_id, g.scopes, g.resource FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
     WHERE t.token_hash = $1 AND t.kind = 'access' AND t.expires_at > now() AND g.revoked_at IS NULL`,
    [presented],
  );
  if (!row || !safeEqualHex(row.token_hash, presented)) return undefined;
  return { grantId: row.grant_id, projectId: row.project_id, scopes: grantScopesOf(row.scopes), resource: row.resource };
}

const lastUsedWrites = new Map<string, number>();

/** Records that the grant was used now (at most once a minute per grant and process). */
export function touchGrant(db: Queryable, grantId: string): void {
  const now = Date.now();
  if (now - (lastUsedWrites.get(grantId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
  if (lastUsedWrites.size > 10_000) lastUsedWrites.clear();
  lastUsedWrites.set(grantId, now);
  void db.query(`UPDATE oauth_grants SET last_used_at = now() WHERE id = $1`, [grantId]).catch(() => undefined);
}

export interface GrantInfo {
  id: string;
  projectId: string;
  clientId: string;
  clientName: string | null;
  clientKind: OAuthClientKind;
  /** The host people are sent back to (the first redirect URI's). */
  redirectHost: string | null;
  scopes: NeededScope[];
  grantedBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface GrantRow {
  id: string;
  project_id: string;
  client_id: string;
  client_name: string | null;
  kind: OAuthClientKind;
  redirect_uris: string;
  scopes: string;
  granted_by: string;
  created_at: unknown;
  last_used_at: unknown;
  revoked_at: unknown;
}

export const redirectHostOf = (uri: string | undefined): string | null => (uri && URL.canParse(uri) ? new URL(uri).host || new URL(uri).protocol : null);

/** The project's grants, oldest first, with their clients. */
export async function listGrants(db: Queryable, projectId: string): Promise<GrantInfo[]> {
  const rows = await db.query<GrantRow>(
    `SELECT g.id, g.project_id, g.client_id, c.client_name, c.kind, c.redirect_uris, g.scopes, g.granted_by, g.created_at, g.last_used_at, g.revoked_at
     FROM oauth_grants g JOIN oauth_clients c ON c.client_id = g.client_id WHERE g.project_id = $1 ORDER BY g.created_at, g.id`,
    [projectId],
  );
  return rows.map((row) => ({
    id: row.id,
    projectId: row.project_id,
    clientId: row.client_id,
    clientName: row.client_name,
    clientKind: row.kind,
    redirectHost: redirectHostOf((JSON.parse(row.redirect_uris) as string[])[0]),
    scopes: grantScopesOf(row.scopes),
    grantedBy: row.granted_by,
    createdAt: toIso(row.created_at),
    lastUsedAt: toIsoOrNull(row.last_used_at),
    revokedAt: toIsoOrNull(row.revoked_at),
  }));
}

/** Ends a grant of the project: its tokens stop working from their next request, on every instance. */
export async function revokeGrant(db: Queryable, projectId: string, grantId: string): Promise<void> {
  const row = await queryOne<{ id: string }>(db, `UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND project_id = $2 RETURNING id`, [grantId, projectId]);
  if (!row) throw notFound("Grant");
  await db.query(`DELETE FROM oauth_tokens WHERE grant_id = $1`, [grantId]);
}

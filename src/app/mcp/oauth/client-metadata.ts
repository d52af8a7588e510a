import type { IncomingMessage } from "node:http";
import { OAuthClientMetadataSchema } from "@modelcontextprotocol/sdk/shared/auth.js";
import { guardedGet, literalRefusal, readCapped, type OutboundPurpose } from "../../outbound-guard.js";
import { isStorableText, STORABLE_TEXT_ERROR } from "../../../shared/stored-values.js";

// Client ID Metadata Documents (MCP authorization, draft-ietf-oauth-client-id-metadata-document): a
// client names itself by an https URL whose JSON document lists its name and redirect URIs. Inkwell
// reads it through the same outbound guard as webhooks and robots.txt fetches (public addresses
// only, checked as the socket connects), bounded in size and time, and keeps the reading a while.

/** The same guard, and the same operator setting, as project webhooks (outbound-guard.ts). */
export const CLIENT_METADATA_FETCHES: OutboundPurpose = { what: "client metadata document requests go", allowSetting: "INKWELL_WEBHOOKS_ALLOW_PRIVATE" };

/** The draft asks servers to bound the document; 5 KB is its suggestion, and real ones are far smaller. */
export const MAX_DOCUMENT_BYTES = 5 * 1024;
const TIMEOUT_MS = 5_000;
/** How long a reading is used: the document's Cache-Control max-age, within these bounds. */
const MIN_CACHE_SECONDS = 60;
const DEFAULT_CACHE_SECONDS = 3600;
const MAX_CACHE_SECONDS = 86_400;

/** Whether a client_id names a metadata document (an https URL with a path), not a registered client. */
export function isMetadataDocumentUrl(clientId: string): boolean {
  if (!URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  return url.protocol === "https:" && url.pathname !== "/" && !url.hash && !url.username && !url.password;
}

const BLOCKED_SCHEMES = new Set(["javascript:", "data:", "file:", "blob:", "about:", "vbscript:", "ftp:", "ws:", "wss:"]);
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether people may be sent back to `uri` (INKWELL_OAUTH_REDIRECT_HOSTS). With a list, only its
 * hosts; without, any https host, http on loopback (a desktop client's local listener) and an app's
 * own scheme (`cursor://…`), never a script, data or file URL. No fragment in any case (RFC 6749).
 */
export function redirectRefusal(uri: string, allowedHosts: readonly string[] | null): string | null {
  if (!URL.canParse(uri)) return `${uri} is not a URL`;
  const url = new URL(uri);
  if (url.hash) return `${uri} has a fragment, which a redirect URI may not have`;
  if (BLOCKED_SCHEMES.has(url.protocol)) return `${uri}: ${url.protocol} URLs cannot be redirect URIs`;
  if (allowedHosts) {
    return allowedHosts.includes(url.hostname.toLowerCase()) ? null : `${uri}: its host is not one this server's operator allows (INKWELL_OAUTH_REDIRECT_HOSTS)`;
  }
  if (url.protocol === "http:" && !LOOPBACK.has(url.hostname)) return `${uri}: plain http is allowed only on this machine (localhost); use https`;
  return null;
}

export interface ClientMetadataDocument {
  clientName: string | null;
  redirectUris: string[];
  metadata: Record<string, unknown>;
  cacheSeconds: number;
}

export class ClientMetadataError extends Error {}

/** Every string in a JSON value (keys too) is storable text (no NUL, no lone surrogate): client metadata is kept as JSON text. */
export const storableDeep = (value: unknown): boolean =>
  typeof value === "string"
    ? isStorableText(value)
    : Array.isArray(value)
      ? value.every(storableDeep)
      : typeof value === "object" && value !== null
        ? Object.entries(value).every(([key, item]) => isStorableText(key) && storableDeep(item))
        : true;

/**
 * Reads and checks the document at `url`: it must be JSON within MAX_DOCUMENT_BYTES, answered 200
 * (no redirects) within TIMEOUT_MS, name itself (`client_id` equal to the URL), list redirect URIs,
 * and be a public client (no client secret: PKCE is its proof). Throws ClientMetadataError saying why not.
 */
export async function fetchClientMetadataDocument(url: string, options: { allowPrivate: boolean; timeoutMs?: number }): Promise<ClientMetadataDocument> {
  if (!isMetadataDocumentUrl(url)) throw new ClientMetadataError(`${url} is not an https URL with a path, as a client metadata document's must be`);
  const target = new URL(url);
  const refused = options.allowPrivate ? null : literalRefusal(target, CLIENT_METADATA_FETCHES);
  if (refused) throw new ClientMetadataError(refused.message);
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let res: IncomingMessage;
  try {
    res = await guardedGet(target, CLIENT_METADATA_FETCHES, { allowPrivate: options.allowPrivate, accept: "application/json", signal });
  } catch (error) {
    throw new ClientMetadataError(`could not read ${url}: ${signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message}`);
  }
  if (res.statusCode !== 200) {
    res.resume();
    throw new ClientMetadataError(`${url} answered ${res.statusCode ?? "nothing"}${res.statusCode && res.statusCode >= 300 && res.statusCode < 400 ? " (a redirect: a metadata document is read at its own URL only)" : ""}`);
  }
  const text = await readCapped(res, MAX_DOCUMENT_BYTES).catch((error: unknown) => {
    throw new ClientMetadataError(`could not read ${url}: ${signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message}`);
  });
  if (text === null) throw new ClientMetadataError(`${url} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ClientMetadataError(`${url} is not JSON`);
  }
  if (!storableDeep(json)) throw new ClientMetadataError(`${url} ${STORABLE_TEXT_ERROR}`);
  const parsed = OAuthClientMetadataSchema.safeParse(json);
  if (!parsed.success) throw new ClientMetadataError(`${url} is not client metadata: ${parsed.error.issues.map((i) => `${i.path.join(".") || "document"}: ${i.message}`).join("; ")}`);
  const document = json as Record<string, unknown>;
  if (document.client_id !== url) throw new ClientMetadataError(`${url} names another client_id (${JSON.stringify(document.client_id)}); a metadata document's client_id is its own URL`);
  if ("client_secret" in document || (parsed.data.token_endpoint_auth_method ?? "none") !== "none") {
    throw new ClientMetadataError(`${url} asks for token_endpoint_auth_method ${parsed.data.token_endpoint_auth_method ?? "with a client secret"}; Inkwell takes public clients ('none', with PKCE) only`);
  }
  if (parsed.data.redirect_uris.length === 0) throw new ClientMetadataError(`${url} lists no redirect_uris`);
  return {
    clientName: typeof parsed.data.client_name === "string" ? parsed.data.client_name.slice(0, 200) : null,
    redirectUris: parsed.data.redirect_uris.map(String),
    metadata: { ...parsed.data, client_id: url },
    cacheSeconds: cacheSecondsOf(res.headers["cache-control"]),
  };
}

function cacheSecondsOf(header: string | undefined): number {
  const maxAge = header ? /(?:^|,)\s*max-age=(\d+)/i.exec(header)?.[1] : undefined;
  if (header && /no-store|no-cache/i.test(header)) return MIN_CACHE_SECONDS;
  const seconds = maxAge === undefined ? DEFAULT_CACHE_SECONDS : Number(maxAge);
  return Math.min(MAX_CACHE_SECONDS, Math.max(MIN_CACHE_SECONDS, seconds));
}

import type { IncomingMessage } from "node:http";
import type { Response } from "express";
import type { OAuthServerProvider, AuthorizationParams } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import {
  InvalidRequestError,
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
  ServerError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import {
  challengeForCode,
  createPendingAuthorization,
  findOAuthClient,
  grantForAccessToken,
  grantForRefreshToken,
  issueTokens,
  revokeClientToken,
  saveOAuthClient,
  spendCode,
  spendRefreshToken,
  type GrantUse,
  type OAuthClientRecord,
} from "../../domain/oauth-grants.js";
import { isSecure, ownOrigin } from "../../http-kit/origin.js";
import type { Services } from "../../services.js";
import { isStorableText, STORABLE_TEXT_ERROR } from "../../../shared/stored-values.js";
import { ClientMetadataError, fetchClientMetadataDocument, isMetadataDocumentUrl, redirectRefusal, storableDeep } from "./client-metadata.js";

/** Where the authorize endpoint sends the person: the dashboard's consent page (dashboard/oauth/). */
export const CONSENT_PATH = "/dashboard/oauth/authorize";
export const MCP_RESOURCE_PATH = "/mcp";
/** The longest `state` or `scope` an authorization request may carry (they are kept until the person decides). */
const MAX_PARAMETER_LENGTH = 2000;

/** This server's origin as the request reached it (PUBLIC_URL's when set). */
export const requestOrigin = (req: IncomingMessage, services: Services) => ownOrigin(req, services.config.publicUrl, isSecure(req, services.config.publicUrl, services.trustedProxies));

/** The RFC 8707 resource every token is bound to: this server's MCP endpoint. */
export const mcpResource = (req: IncomingMessage, services: Services) => `${requestOrigin(req, services)}${MCP_RESOURCE_PATH}`;

/** A resource indicator names the MCP endpoint when it is the same URL (a trailing slash aside). */
const sameResource = (given: URL | string, expected: string) => String(given).replace(/\/$/, "") === expected.replace(/\/$/, "");

/**
 * The SDK's OAuthServerProvider over Inkwell's store (domain/oauth-grants.ts): the SDK's handlers
 * parse and answer the OAuth requests (authorize, token, register, revoke) and check PKCE S256; this
 * decides who the clients are, binds every code and token to the MCP URL, and keeps codes and
 * tokens as hashes. Clients are public (no secret): PKCE is their proof, as for every MCP client.
 */
export class InkwellOAuthProvider implements OAuthServerProvider {
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(private readonly services: Services) {
    const { config } = services;
    this.clientsStore = {
      getClient: (clientId) => this.#client(clientId),
      ...(config.oauth.registration ? { registerClient: (client: Omit<OAuthClientInformationFull, "client_id_issued_at">) => this.#register(client) } : {}),
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    // RFC 7636: a challenge is 43 base64url characters; what is stored must be storable text (no NUL, no lone surrogate).
    if (!/^[A-Za-z0-9_-]{43}$/.test(params.codeChallenge)) throw new InvalidRequestError("code_challenge must be the 43 base64url characters of an S256 challenge (RFC 7636)");
    for (const [field, value] of [["state", params.state ?? ""], ["scope", (params.scopes ?? []).join(" ")]] as const) {
      if (!isStorableText(value) || value.length > MAX_PARAMETER_LENGTH) throw new InvalidRequestError(`${field} must be at most ${MAX_PARAMETER_LENGTH} characters and ${STORABLE_TEXT_ERROR}`);
    }
    const expected = mcpResource(res.req, this.services);
    // MCP clients send the resource (RFC 8707); one that does not gets tokens for the one resource there is.
    if (params.resource && !sameResource(params.resource, expected)) {
      throw new InvalidTargetError(`This server issues tokens for ${expected} only, not ${params.resource.href}`);
    }
    const id = await createPendingAuthorization(this.services.db, {
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      state: params.state ?? null,
      scopes: params.scopes ?? [],
      resource: expected,
    });
    res.redirect(302, `${requestOrigin(res.req, this.services)}${CONSENT_PATH}?request=${id}`);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<string> {
    const challenge = await challengeForCode(this.services.db, client.client_id, authorizationCode);
    if (challenge === undefined) throw new InvalidGrantError("The authorization code is unknown, used or expired, or was issued to another client");
    return challenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string, _verifier?: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    const spent = await spendCode(this.services.db, client.client_id, authorizationCode);
    if (!spent) throw new InvalidGrantError("The authorization code is unknown, used or expired, or was issued to another client");
    if (redirectUri !== undefined && redirectUri !== spent.redirectUri) throw new InvalidGrantError("redirect_uri is not the one the authorization request named");
    return this.#tokens(spent, resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    // A request the grant cannot answer (a wider scope, another resource) leaves the refresh token as it was.
    const live = await grantForRefreshToken(this.services.db, client.client_id, refreshToken);
    if (live) {
      const beyond = (scopes ?? []).filter((scope) => !(live.scopes as string[]).includes(scope));
      if (beyond.length > 0) throw new InvalidScopeError(`The grant does not cover ${beyond.join(", ")}; it has ${live.scopes.join(" ")}`);
      if (resource && !sameResource(resource, live.resource)) throw new InvalidTargetError(`This grant is for ${live.resource}, not ${resource.href}`);
    }
    const grant = await spendRefreshToken(this.services.db, client.client_id, refreshToken);
    if (!grant) throw new InvalidGrantError("The refresh token is unknown, used, expired or revoked, or was issued to another client");
    return this.#tokens(grant, resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = await grantForAccessToken(this.services.db, token);
    if (!grant) throw new InvalidTokenError("Unknown, expired or revoked access token");
    return { token, clientId: grant.grantId, scopes: grant.scopes, resource: new URL(grant.resource) };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    await revokeClientToken(this.services.db, client.client_id, request.token);
  }

  async #tokens(grant: GrantUse, resource: URL | undefined): Promise<OAuthTokens> {
    if (resource && !sameResource(resource, grant.resource)) throw new InvalidTargetError(`This grant is for ${grant.resource}, not ${resource.href}`);
    const { oauth } = this.services.config;
    const issued = await issueTokens(this.services.db, grant.grantId, { accessSeconds: oauth.accessTokenSeconds, refreshSeconds: oauth.refreshTokenSeconds });
    return { access_token: issued.accessToken, token_type: "Bearer", expires_in: issued.expiresIn, refresh_token: issued.refreshToken, scope: grant.scopes.join(" ") };
  }

  /** A registered client, or a metadata document's (read again once its reading is stale); undefined for none. */
  async #client(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    const { db, config } = this.services;
    // No client has an id the store could not hold (nor one longer than a URL should be).
    if (!isStorableText(clientId) || clientId.length > 2000) return undefined;
    let record = await findOAuthClient(db, clientId);
    if (isMetadataDocumentUrl(clientId)) {
      if (!record || record.kind !== "metadata_document" || (record.expiresAt !== null && Date.parse(record.expiresAt) <= Date.now())) {
        try {
          const document = await fetchClientMetadataDocument(clientId, { allowPrivate: config.webhooksAllowPrivate });
          record = await saveOAuthClient(db, { clientId, kind: "metadata_document", clientName: document.clientName, redirectUris: document.redirectUris, metadata: document.metadata }, document.cacheSeconds);
        } catch (error) {
          if (error instanceof ClientMetadataError) throw new InvalidClientError(`Client metadata document refused: ${error.message}`);
          throw new ServerError(`Could not read the client's metadata document: ${(error as Error).message}`);
        }
      }
    } else if (record?.kind !== "registered") {
      return undefined;
    }
    return record ? this.#information(record) : undefined;
  }

  /** What the SDK's handlers see of a client: public, with the redirect URIs the operator's policy allows now. */
  #information(record: OAuthClientRecord): OAuthClientInformationFull {
    const allowed = record.redirectUris.filter((uri) => redirectRefusal(uri, this.services.config.oauth.redirectHosts) === null);
    if (allowed.length === 0) {
      throw new InvalidClientError(`None of this client's redirect URIs is allowed here: ${redirectRefusal(record.redirectUris[0] ?? "", this.services.config.oauth.redirectHosts) ?? "none listed"}`);
    }
    const metadata = record.metadata as Partial<OAuthClientInformationFull>;
    return {
      ...metadata,
      client_id: record.clientId,
      ...(record.clientName ? { client_name: record.clientName } : {}),
      redirect_uris: allowed,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    } as OAuthClientInformationFull;
  }

  /**
   * Dynamic Client Registration (RFC 7591), for clients that have no metadata document: public
   * clients only (any secret the SDK drew is dropped, and the answer says `none`), with redirect
   * URIs the operator's policy allows.
   */
  async #register(client: Omit<OAuthClientInformationFull, "client_id_issued_at">): Promise<OAuthClientInformationFull> {
    for (const uri of client.redirect_uris) {
      const refusal = redirectRefusal(String(uri), this.services.config.oauth.redirectHosts);
      if (refusal) throw new InvalidClientMetadataError(`redirect_uris: ${refusal}`);
    }
    if (client.redirect_uris.length === 0) throw new InvalidClientMetadataError("redirect_uris: at least one is needed");
    if (!storableDeep(client)) throw new InvalidClientMetadataError(`client metadata ${STORABLE_TEXT_ERROR}`);
    const { client_secret: _secret, client_secret_expires_at: _expires, ...metadata } = client;
    const info = { ...metadata, token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] } as OAuthClientInformationFull;
    const name = typeof info.client_name === "string" ? info.client_name.slice(0, 200) : null;
    await saveOAuthClient(this.services.db, { clientId: info.client_id, kind: "registered", clientName: name, redirectUris: info.redirect_uris.map(String), metadata: info as unknown as Record<string, unknown> }, null);
    return { ...info, client_id_issued_at: Math.floor(Date.now() / 1000) };
  }
}

import type { Logger } from "pino";
import { z } from "zod";
import { HttpError } from "../http-kit/http-error.js";
import { withoutTrailingSlashes } from "../../shared/trailing-slashes.js";

const tokenResponseSchema = z.union([
  z.object({ access_token: z.string().min(1) }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);
const userSchema = z.object({ id: z.number().int().positive(), login: z.string().min(1).max(100) });

export interface GitHubUser {
  id: number;
  login: string;
}

/**
 * Sign in with GitHub through the App's own OAuth credentials (the web application flow). The
 * user's token is used for one call — who is this — and then revoked: repository permissions are
 * asked of the App's installation, so no user token is ever kept.
 */
export class GitHubOAuth {
  constructor(
    private readonly credentials: { clientId: string; clientSecret: string },
    private readonly urls: { server: string; api: string },
    private readonly log: Logger,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  authorizeUrl(redirectUri: string, state: string): string {
    const url = new URL("/login/oauth/authorize", this.urls.server);
    url.searchParams.set("client_id", this.credentials.clientId);
    url.searchParams.set("redirect_uri", redirectUri);
    url.searchParams.set("state", state);
    url.searchParams.set("allow_signup", "false");
    return url.toString();
  }

  /** Exchanges the callback's code for the user's identity; 400 when GitHub refuses the code, 502 when it cannot be asked. */
  async userFor(code: string, redirectUri: string): Promise<GitHubUser> {
    const exchanged = tokenResponseSchema.parse(
      await this.#json(new URL("/login/oauth/access_token", this.urls.server), {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({ client_id: this.credentials.clientId, client_secret: this.credentials.clientSecret, code, redirect_uri: redirectUri }),
      }),
    );
    if ("error" in exchanged) {
      throw new HttpError(400, `GitHub refused the sign-in (${exchanged.error_description ?? exchanged.error}). Start again from the sign-in page.`);
    }
    const token = exchanged.access_token;
    try {
      return userSchema.parse(await this.#json(this.#api("/user"), { headers: { Accept: "application/vnd.github+json", Authorization: `Bearer ${token}` } }));
    } finally {
      this.#revoke(token);
    }
  }

  #api(path: string): URL {
    return new URL(withoutTrailingSlashes(this.urls.api) + path);
  }

  async #json(url: URL, init: RequestInit): Promise<unknown> {
    let response: Response;
    try {
      response = await this.fetchFn(url, { ...init, signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      this.log.warn({ err: error, host: url.host }, "GitHub sign-in: request failed");
      throw new HttpError(502, `Could not reach GitHub at ${url.origin}; try again, and check that this server can reach it`);
    }
    if (!response.ok) {
      this.log.warn({ status: response.status, path: url.pathname }, "GitHub sign-in: unexpected status");
      throw new HttpError(502, `GitHub answered ${response.status} during sign-in; try again`);
    }
    return response.json();
  }

  /** Best effort: the token has served its one purpose. */
  #revoke(token: string): void {
    const basic = Buffer.from(`${this.credentials.clientId}:${this.credentials.clientSecret}`).toString("base64");
    this.fetchFn(this.#api(`/applications/${encodeURIComponent(this.credentials.clientId)}/token`), {
      method: "DELETE",
      headers: { Accept: "application/vnd.github+json", Authorization: `Basic ${basic}`, "Content-Type": "application/json" },
      body: JSON.stringify({ access_token: token }),
      signal: AbortSignal.timeout(10_000),
    })
      .then((response) => {
        if (!response.ok && response.status !== 404) this.log.warn({ status: response.status }, "GitHub sign-in: could not revoke the user token");
      })
      .catch((error: unknown) => this.log.warn({ err: error }, "GitHub sign-in: could not revoke the user token"));
  }
}

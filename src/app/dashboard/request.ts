import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { describeIssues } from "../../shared/zod-issues.js";
import { safeEqualSecret } from "../domain/api-keys.js";
import { HttpError } from "../http-kit/http-error.js";
import { readBody } from "../http-kit/body.js";
import type { Reply } from "../http-kit/router.js";
import { cookieName, readCookies } from "./cookies.js";
import type { SafeHtml } from "./html.js";

export const SESSION_COOKIE = "inkwell_session";
export const LOGIN_COOKIE = "inkwell_login";

/**
 * Scripts, styles, images and fetches from this origin only; no inline code, no framing, forms
 * post only here. The dashboard's own assets are built to satisfy it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** Same-origin referrers: with no-referrer a browser sends `Origin: null` on form posts and the origin check could not tell. */
const PAGE_HEADERS = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
};

export const htmlReply = (status: number, page: SafeHtml, headers: Record<string, string | string[]> = {}): Reply => ({
  status,
  raw: { contentType: "text/html; charset=utf-8", content: page.value },
  headers: { ...PAGE_HEADERS, ...headers },
});

/** 303 so the browser follows with a GET (post/redirect/get). */
export const redirect = (location: string, headers: Record<string, string | string[]> = {}): Reply => ({
  status: 303,
  raw: { contentType: "text/plain; charset=utf-8", content: "" },
  headers: { ...PAGE_HEADERS, Location: location, ...headers },
});

export function cookieValue(req: IncomingMessage, base: string, secure: boolean): string | undefined {
  return readCookies(req).get(cookieName(base, secure));
}

/**
 * CSRF defence for every state-changing request: the browser must not say the request came from
 * another site (Origin, Sec-Fetch-Site), and the body or header must carry the session's token.
 */
export function requireSameOrigin(req: IncomingMessage, expectedOrigin: string): void {
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  if ((origin !== undefined && origin !== expectedOrigin) || (site !== undefined && site !== "same-origin" && site !== "none")) {
    throw new HttpError(403, "This request came from another site and was refused (CSRF protection). Use the dashboard's own forms.");
  }
}

export function requireCsrfToken(presented: string | undefined, expected: string): void {
  if (!presented || !safeEqualSecret(presented, expected)) {
    throw new HttpError(403, "The form's security token is missing or out of date (CSRF protection). Reload the page and try again.");
  }
}

const FORM_LIMIT_BYTES = 128 * 1024;

/** An application/x-www-form-urlencoded body as an object; a repeated field keeps its first value. */
export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  const type = req.headers["content-type"] ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) throw new HttpError(415, "Send the dashboard's form (application/x-www-form-urlencoded)");
  const body = await readBody(req, FORM_LIMIT_BYTES);
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body.toString("utf8"))) if (!(key in out)) out[key] = value;
  return out;
}

/** Validates form or query fields; the 400 message names each field in words a person can act on. */
export function parseFields<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new HttpError(400, describeIssues(result.error, "form"));
}

/** A table's paging offset in a query string (`?offset=50`). */
export const offsetField = z.coerce.number().int().min(0).max(10_000_000).default(0);

/** A path inside the dashboard to return to after signing in; anything else becomes the dashboard's home. */
export function safeNext(next: string | null | undefined): string {
  // Printable ASCII only: it goes into a Location header.
  return next && /^\/dashboard(?:[/?#][\x21-\x7e]*)?$/.test(next) && !next.includes("\\") ? next : "/dashboard";
}

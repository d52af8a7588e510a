import type { IncomingMessage } from "node:http";

/** The request's cookies; the first of a repeated name wins (browsers send the most specific first). */
export function readCookies(req: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(eq + 1).trim());
  }
  return cookies;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie; undefined = a browser-session cookie. */
  maxAge?: number;
  secure: boolean;
}

/** Always HttpOnly, SameSite=Lax and Path=/ (so `__Host-` names are valid over HTTPS). */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.secure) parts.push("Secure");
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  return parts.join("; ");
}

/** Cookie names: the `__Host-` prefix (host-only, Secure, Path=/) whenever the page is served over HTTPS. */
export const cookieName = (base: string, secure: boolean) => (secure ? `__Host-${base}` : base);

/** A Set-Cookie value that deletes the cookie `base` (under the name it has on this scheme). */
export const clearCookie = (base: string, secure: boolean) => serializeCookie(cookieName(base, secure), "", { secure, maxAge: 0 });

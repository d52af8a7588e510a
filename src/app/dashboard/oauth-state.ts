import type { IncomingMessage } from "node:http";
import { safeEqualSecret } from "../domain/api-keys.js";
import { HttpError } from "../http-kit/http-error.js";
import { cookieName, serializeCookie } from "./cookies.js";
import { cookieValue, safeNext } from "./request.js";
import { randomToken } from "./sessions.js";

/**
 * The `state` of a GitHub sign-in. GitHub hands it back to the callback, which is accepted only
 * in the browser holding the same value in this cookie: a sign-in started by someone else (login
 * CSRF) cannot finish here. The cookie also carries the page to return to, since GitHub's round
 * trip drops everything but `code` and `state`.
 */
export const OAUTH_STATE_COOKIE = "inkwell_oauth";

/** Ten minutes to approve on GitHub; a later callback is refused and the user starts again. */
const COOKIE_SECONDS = 600;

/** The cookie's value, `<state>.<next in base64url>`: base64url has no `.` and nothing a cookie forbids. */
export const encodeOAuthState = (state: string, next: string) => `${state}.${Buffer.from(next).toString("base64url")}`;

/** The state and return path of a cookie's value; an empty state for a missing or malformed one. */
export function decodeOAuthState(value: string | undefined): { state: string; next: string } {
  const [state = "", encodedNext = ""] = (value ?? "").split(".");
  return { state, next: Buffer.from(encodedNext, "base64url").toString("utf8") };
}

/** A fresh state for GitHub's authorize URL, and the Set-Cookie that binds it (and `next`) to this browser. */
export function startOAuthState(next: string, secure: boolean): { state: string; setCookie: string } {
  const state = randomToken();
  return { state, setCookie: serializeCookie(cookieName(OAUTH_STATE_COOKIE, secure), encodeOAuthState(state, next), { secure, maxAge: COOKIE_SECONDS }) };
}

/** The dashboard path to return to when the callback's `state` is this browser's; 403 otherwise. */
export function verifyOAuthState(req: IncomingMessage, presented: string, secure: boolean): string {
  const { state, next } = decodeOAuthState(cookieValue(req, OAUTH_STATE_COOKIE, secure));
  if (!state || !safeEqualSecret(presented, state)) {
    throw new HttpError(403, "This sign-in did not start here or took too long (state mismatch). Start again from the sign-in page.");
  }
  return safeNext(next);
}

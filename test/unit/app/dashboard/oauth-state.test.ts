import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { decodeOAuthState, encodeOAuthState, startOAuthState, verifyOAuthState } from "../../../../src/app/dashboard/oauth-state.js";
import { HttpError } from "../../../../src/app/http-kit/http-error.js";

const withCookie = (cookie: string | undefined) => ({ headers: cookie === undefined ? {} : { cookie } }) as IncomingMessage;

/** The cookie a browser sends back for a Set-Cookie value. */
const sentBack = (setCookie: string) => setCookie.split(";")[0] as string;

function refused(req: IncomingMessage, presented: string, secure = false): HttpError {
  try {
    verifyOAuthState(req, presented, secure);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error("the callback was accepted");
}

describe("OAuth state", () => {
  it("carries the state and the return path in one cookie value", () => {
    const value = encodeOAuthState("abc_DEF-123", "/dashboard/projects/p1/analytics?from=2026-01-01&to=2026-01-31");
    expect(value).toMatch(/^abc_DEF-123\.[A-Za-z0-9_-]+$/);
    expect(decodeOAuthState(value)).toEqual({ state: "abc_DEF-123", next: "/dashboard/projects/p1/analytics?from=2026-01-01&to=2026-01-31" });
    expect(decodeOAuthState(undefined)).toEqual({ state: "", next: "" });
    expect(decodeOAuthState("only-state")).toEqual({ state: "only-state", next: "" });
  });

  it("sets a ten-minute HttpOnly cookie, __Host- prefixed over HTTPS", () => {
    const plain = startOAuthState("/dashboard", false);
    expect(plain.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(plain.setCookie).toBe(`inkwell_oauth=${encodeOAuthState(plain.state, "/dashboard")}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600`);
    const secure = startOAuthState("/dashboard", true);
    expect(secure.setCookie).toBe(`__Host-inkwell_oauth=${encodeOAuthState(secure.state, "/dashboard")}; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=600`);
    expect(secure.state).not.toBe(plain.state);
  });

  it("accepts the callback in the browser that started it and returns where it was going", () => {
    const { state, setCookie } = startOAuthState("/dashboard/projects/p1/jobs", false);
    expect(verifyOAuthState(withCookie(`other=1; ${sentBack(setCookie)}`), state, false)).toBe("/dashboard/projects/p1/jobs");
    const secure = startOAuthState("/dashboard", true);
    expect(verifyOAuthState(withCookie(sentBack(secure.setCookie)), secure.state, true)).toBe("/dashboard");
  });

  it("refuses a callback whose state this browser does not hold (403, state mismatch)", () => {
    const { state, setCookie } = startOAuthState("/dashboard", false);
    for (const error of [refused(withCookie(sentBack(setCookie)), "forged-state"), refused(withCookie(undefined), state), refused(withCookie(sentBack(setCookie)), "")]) {
      expect(error.status).toBe(403);
      expect(error.message).toBe("This sign-in did not start here or took too long (state mismatch). Start again from the sign-in page.");
    }
    // Over HTTPS only the __Host- cookie counts: a plain one could have been planted by a sibling subdomain.
    expect(refused(withCookie(sentBack(setCookie)), state, true).status).toBe(403);
  });

  it("returns to the dashboard's home instead of a path outside the dashboard", () => {
    const req = withCookie(`inkwell_oauth=${encodeOAuthState("s", "https://evil.example/")}`);
    expect(verifyOAuthState(req, "s", false)).toBe("/dashboard");
  });
});

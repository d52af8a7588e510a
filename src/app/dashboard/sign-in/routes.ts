import type { IncomingMessage } from "node:http";
import { safeEqualSecret } from "../../domain/api-keys.js";
import type { DashboardController } from "../controller.js";
import { clearCookie, cookieName, serializeCookie } from "../cookies.js";
import { GitHubOAuth } from "../github-oauth.js";
import { layout } from "../layout.js";
import { noticeOf, type Notice } from "../notices.js";
import { OAUTH_STATE_COOKIE, startOAuthState, verifyOAuthState } from "../oauth-state.js";
import { signInBody } from "./page.js";
import { cookieValue, htmlReply, LOGIN_COOKIE, readForm, redirect, requireCsrfToken, requireSameOrigin, safeNext, SESSION_COOKIE } from "../request.js";
import { createSession, endSession, pruneSessions, randomToken, type DashboardUser } from "../sessions.js";
import { HttpError } from "../../http-kit/http-error.js";
import type { Router } from "../../http-kit/router.js";

/** How long the sign-in form's CSRF token lasts: the visitor has no session yet to carry one. */
const LOGIN_COOKIE_SECONDS = 3600;
const CALLBACK_PATH = "/dashboard/auth/github/callback";

/** Operator sign-in, Sign in with GitHub (start and callback), and sign-out. */
export function registerSignInRoutes(router: Router, dashboard: DashboardController): void {
  const { db, config, adminToken, log } = dashboard.services;
  const oauth = config.dashboard.oauth
    ? new GitHubOAuth(config.dashboard.oauth, { server: config.githubServerUrl, api: config.githubApiUrl }, log.child({ component: "dashboard-oauth" }))
    : null;

  /** A fresh session (never the one a cookie brought: no fixation), ending the browser's previous one. */
  const signedIn = async (req: IncomingMessage, user: DashboardUser, secure: boolean, next: string, usedCookie: string) => {
    await pruneSessions(db);
    await endSession(db, cookieValue(req, SESSION_COOKIE, secure));
    const { secret } = await createSession(db, user, config.dashboard.sessionHours, dashboard.tokenHash);
    return redirect(safeNext(next), { "Set-Cookie": [dashboard.sessionCookie(secret, secure), clearCookie(usedCookie, secure)] });
  };

  const signInPage = (secure: boolean, next: string, status = 200, error: string | null = null, notice: Notice | null = null) => {
    const loginToken = randomToken();
    const body = signInBody({ githubEnabled: oauth !== null, loginToken, next, error });
    return htmlReply(status, layout({ title: "Sign in", session: null, notice, body }), {
      "Set-Cookie": serializeCookie(cookieName(LOGIN_COOKIE, secure), loginToken, { secure, maxAge: LOGIN_COOKIE_SECONDS }),
    });
  };

  router.on(
    "GET",
    "/dashboard/sign-in",
    dashboard.open(async (r) => {
      const next = safeNext(r.ctx.url.searchParams.get("next"));
      if (r.session) return redirect(next);
      return signInPage(r.secure, next, 200, null, noticeOf(r.ctx.url));
    }),
  );

  router.on(
    "POST",
    "/dashboard/sign-in",
    dashboard.open(async (r) => {
      requireSameOrigin(r.ctx.req, r.origin);
      const form = await readForm(r.ctx.req);
      requireCsrfToken(form.csrf, cookieValue(r.ctx.req, LOGIN_COOKIE, r.secure) ?? "");
      const next = safeNext(form.next);
      if (!form.token || !safeEqualSecret(form.token, adminToken)) {
        log.warn({ component: "dashboard" }, "dashboard sign-in with a wrong operator token");
        return signInPage(r.secure, next, 401, "That is not the operator token.");
      }
      return signedIn(r.ctx.req, { kind: "operator" }, r.secure, next, LOGIN_COOKIE);
    }),
  );

  router.on(
    "GET",
    "/dashboard/auth/github",
    dashboard.open(async (r) => {
      if (!oauth) throw new HttpError(404, "Sign in with GitHub is not configured on this server (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET)");
      const { state, setCookie } = startOAuthState(safeNext(r.ctx.url.searchParams.get("next")), r.secure);
      return {
        status: 302,
        raw: { contentType: "text/plain; charset=utf-8", content: "" },
        headers: { Location: oauth.authorizeUrl(`${r.origin}${CALLBACK_PATH}`, state), "Set-Cookie": setCookie },
      };
    }),
  );

  router.on(
    "GET",
    CALLBACK_PATH,
    dashboard.open(async (r) => {
      if (!oauth) throw new HttpError(404, "Sign in with GitHub is not configured on this server");
      const next = verifyOAuthState(r.ctx.req, r.ctx.url.searchParams.get("state") ?? "", r.secure);
      const code = r.ctx.url.searchParams.get("code");
      if (!code) throw new HttpError(400, `GitHub did not sign you in (${r.ctx.url.searchParams.get("error_description") ?? "no code"}). Start again from the sign-in page.`);
      const user = await oauth.userFor(code, `${r.origin}${CALLBACK_PATH}`);
      return signedIn(r.ctx.req, { kind: "github", id: user.id, login: user.login }, r.secure, next, OAUTH_STATE_COOKIE);
    }),
  );

  router.on(
    "POST",
    "/dashboard/sign-out",
    dashboard.action(async (r) => {
      await endSession(db, cookieValue(r.ctx.req, SESSION_COOKIE, r.secure));
      return redirect("/dashboard/sign-in?notice=signed-out", { "Set-Cookie": clearCookie(SESSION_COOKIE, r.secure) });
    }),
  );
}

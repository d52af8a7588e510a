import type { IncomingMessage } from "node:http";
import { asHttpError } from "../http-kit/error-reply.js";
import { HttpError } from "../http-kit/http-error.js";
import { wellFormedIdOf } from "../domain/ids.js";
import type { Handler, Reply, RequestContext } from "../http-kit/router.js";
import type { Services } from "../services.js";
import { DashboardAccess, type ProjectAccess } from "./access.js";
import { cookieName, serializeCookie } from "./cookies.js";
import { html } from "./html.js";
import { layout } from "./layout.js";
import { isSecure, ownOrigin } from "../http-kit/origin.js";
import { cookieValue, htmlReply, readForm, redirect, requireCsrfToken, requireSameOrigin, SESSION_COOKIE } from "./request.js";
import { findSession, operatorTokenHash, type Session } from "./sessions.js";
import type { Project } from "../domain/projects.js";

/** Per-request facts every dashboard handler needs. */
export interface DashboardRequest {
  ctx: RequestContext;
  secure: boolean;
  origin: string;
  session: Session | null;
}

/** What `page` and `action` handlers get: a request with someone signed in. */
export type SignedInRequest = DashboardRequest & { session: Session };

/**
 * The dashboard's request plumbing: who is signed in, which project they may see, CSRF checks on
 * every state-changing request, and HTML error pages. Handlers stay parse → domain call → render.
 */
export class DashboardController {
  readonly access: DashboardAccess;
  readonly tokenHash: string;

  constructor(readonly services: Services) {
    this.tokenHash = operatorTokenHash(services.adminToken);
    const { db, github, config, log } = services;
    this.access = new DashboardAccess(db, github, config.dashboard.minPermission, log.child({ component: "dashboard" }));
  }

  async request(ctx: RequestContext): Promise<DashboardRequest> {
    const { config, trustedProxies, db } = this.services;
    const secure = isSecure(ctx.req, config.publicUrl, trustedProxies);
    const session = await findSession(db, cookieValue(ctx.req, SESSION_COOKIE, secure), this.tokenHash);
    return { ctx, secure, origin: ownOrigin(ctx.req, config.publicUrl, secure), session };
  }

  /** A GET page for signed-in users; anonymous visitors are sent to sign in and brought back. */
  page(handler: (r: SignedInRequest) => Promise<Reply>): Handler {
    return this.#guard(async (r) => {
      if (!r.session) return redirect(`/dashboard/sign-in?next=${encodeURIComponent(r.ctx.url.pathname + r.ctx.url.search)}`);
      return handler({ ...r, session: r.session });
    });
  }

  /** A form post: same-origin, signed in, carrying the session's CSRF token. */
  action(handler: (r: SignedInRequest, form: Record<string, string>) => Promise<Reply>): Handler {
    return this.#guard(async (r) => {
      requireSameOrigin(r.ctx.req, r.origin);
      if (!r.session) throw new HttpError(401, "Your session has ended; sign in again.");
      const form = await readForm(r.ctx.req);
      requireCsrfToken(form.csrf, r.session.csrfToken);
      return handler({ ...r, session: r.session }, form);
    });
  }

  /** Any dashboard handler, signed in or not, with errors shown as pages. */
  open(handler: (r: DashboardRequest) => Promise<Reply>): Handler {
    return this.#guard(handler);
  }

  /**
   * The path's project, when the user may see it (404 alike otherwise); `need` adds what the
   * action requires: write to start jobs and send follow-ups, admin to manage keys (403 saying so).
   */
  async project(r: { ctx: RequestContext; session: Session }, need?: "write" | "admin"): Promise<{ project: Project; access: ProjectAccess }> {
    const found = await this.access.project(r.session.user, wellFormedIdOf(r.ctx.params.projectId, "Project"));
    const { access, project } = found;
    if (need === "admin" && !access.canAdmin) {
      throw new HttpError(403, `Creating and revoking keys needs admin permission on ${project.repoName}; yours is ${access.role}.`);
    }
    if (need === "write" && !access.canWrite) {
      throw new HttpError(403, `Starting jobs and sending follow-ups needs write permission on ${project.repoName}; yours is ${access.role}.`);
    }
    return found;
  }

  sessionCookie(secret: string, secure: boolean): string {
    return serializeCookie(cookieName(SESSION_COOKIE, secure), secret, { secure, maxAge: this.services.config.dashboard.sessionHours * 3600 });
  }

  #guard(handler: (r: DashboardRequest) => Promise<Reply>): Handler {
    return async (ctx) => {
      let r: DashboardRequest | null = null;
      try {
        r = await this.request(ctx);
        return await handler(r);
      } catch (error) {
        const known = asHttpError(error);
        if (!known) throw error;
        return errorPage(known, r?.session ?? null, ctx.req);
      }
    };
  }
}

function errorPage(error: HttpError, session: Session | null, req: IncomingMessage): Reply {
  const title = error.status === 404 ? "Not found" : error.status === 403 ? "Refused" : error.status === 429 ? "Too many requests" : error.status >= 500 ? "Something went wrong" : "That did not work";
  const body = html`<p>${error.message}</p>
<p>${req.method === "POST" ? html`Go back, fix what the message says and send again, or ` : ""}<a href="/dashboard">return to your projects</a>.</p>`;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(error.headers ?? {})) if (name !== "WWW-Authenticate") headers[name] = value;
  return htmlReply(error.status, layout({ title, session, notice: null, body }), headers);
}

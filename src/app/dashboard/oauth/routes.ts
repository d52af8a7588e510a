import { NEEDED_SCOPES } from "../../../shared/key-scopes.js";
import { approveAuthorization, denyAuthorization, findPendingAuthorization, listGrants, revokeGrant } from "../../domain/oauth-grants.js";
import { NotFoundError } from "../../domain/errors.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import { HttpError } from "../../http-kit/http-error.js";
import type { Router } from "../../http-kit/router.js";
import type { Reply } from "../../http-kit/router.js";
import { CONSENT_PATH } from "../../mcp/oauth/provider.js";
import type { DashboardController } from "../controller.js";
import { layout, projectPath } from "../layout.js";
import { CONTENT_SECURITY_POLICY, htmlReply, redirect } from "../request.js";
import { approverOf, consentBody, grantScopeField, mayRevoke } from "./page.js";

const expired = () => new NotFoundError("Authorization request", "This authorization request expired or was already answered. Start again from your assistant.");

/** Where the browser goes after the decision: the client's redirect URI with the answer (RFC 6749 4.1.2, RFC 9207's iss). */
function answer(redirectUri: string, params: Record<string, string | null>, origin: string): Reply {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...params, iss: origin })) if (value !== null) url.searchParams.set(name, value);
  return redirect(url.href);
}

/**
 * A form may only be sent, and so redirected, to where the page's CSP says (form-action): this page's
 * form ends at the client's redirect URI, so the consent page allows that origin (or app scheme) too.
 */
function consentPolicy(redirectUri: string): string {
  const url = new URL(redirectUri);
  const target = url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
  return CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self' ${target}`);
}

/**
 * The consent step of Inkwell's OAuth authorization server (mcp/oauth/): the authorize endpoint
 * sends the person here; signed in as usual, they pick the project and scopes and approve or deny.
 * And revoking a grant from the project's API keys page: a project admin any, anyone their own.
 */
export function registerOAuthPages(router: Router, dashboard: DashboardController): void {
  const { db } = dashboard.services;

  router.on(
    "GET",
    CONSENT_PATH,
    dashboard.page(async (r) => {
      const pending = await findPendingAuthorization(db, wellFormedIdOf(r.ctx.url.searchParams.get("request") ?? undefined, "Authorization request")).catch(() => undefined);
      if (!pending) throw expired();
      const projects = await dashboard.access.projects(r.session.user);
      const body = consentBody({ session: r.session, pending, projects });
      return htmlReply(200, layout({ title: "Allow access", session: r.session, notice: null, body }), { "Content-Security-Policy": consentPolicy(pending.redirectUri) });
    }),
  );

  router.on(
    "POST",
    CONSENT_PATH,
    dashboard.action(async (r, form) => {
      const pending = await findPendingAuthorization(db, wellFormedIdOf(form.request, "Authorization request")).catch(() => undefined);
      if (!pending) throw expired();
      if (form.decision !== "approve") {
        await denyAuthorization(db, pending.id);
        return answer(pending.redirectUri, { error: "access_denied", error_description: "The person denied the request", state: pending.state }, r.origin);
      }
      const { project, access } = await dashboard.access.project(r.session.user, wellFormedIdOf(form.project, "Project"));
      const scopes = NEEDED_SCOPES.filter((scope) => form[grantScopeField(scope)] === "on");
      if (scopes.length === 0) throw new HttpError(400, "Choose at least one thing the assistant may do (a scope), or deny.");
      if (scopes.includes("jobs") && !access.canWrite) {
        throw new HttpError(403, `The jobs scope starts jobs, which needs write permission on ${project.repoName}; yours is ${access.role}. Approve without it.`);
      }
      const grantedBy = approverOf(r.session);
      const approved = await db.transaction((tx) => approveAuthorization(tx, pending.id, { projectId: project.id, scopes, grantedBy }));
      if (!approved) throw expired();
      return answer(pending.redirectUri, { code: approved.code, state: pending.state }, r.origin);
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/grants/:grantId/revoke",
    dashboard.action(async (r) => {
      const { project, access } = await dashboard.project(r);
      const grantId = wellFormedIdOf(r.ctx.params.grantId, "Grant");
      const grant = (await listGrants(db, project.id)).find((g) => g.id === grantId && !g.revokedAt);
      if (!grant) throw new NotFoundError("Grant", "This assistant's access was not found, or is already revoked");
      if (!mayRevoke(r.session, access, grant)) {
        throw new HttpError(403, `Revoking an assistant's access needs admin permission on ${project.repoName}, or to be the one who approved it (${grant.grantedBy}); yours is ${access.role}.`);
      }
      await revokeGrant(db, project.id, grantId);
      return redirect(`${projectPath(project.id, "keys")}?notice=grant-revoked`);
    }),
  );
}

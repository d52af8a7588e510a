import { createKeySchema } from "../../../shared/admin-schemas.js";
import { createApiKey, listApiKeys, revokeApiKey } from "../../domain/api-keys.js";
import { NotFoundError } from "../../domain/errors.js";
import { wellFormedIdOf } from "../../domain/ids.js";
import type { DashboardController } from "../controller.js";
import { layout, projectPath } from "../layout.js";
import { noticeOf } from "../notices.js";
import { keysBody, revokeConfirmBody, scopeField } from "./page.js";
import { KEY_SCOPES } from "../../../shared/key-scopes.js";
import { htmlReply, parseFields, redirect } from "../request.js";
import { MCP_PATH } from "../../mcp/mcp-endpoint.js";
import type { Router } from "../../http-kit/router.js";
import { listGrants } from "../../domain/oauth-grants.js";
import { grantsSection } from "../oauth/page.js";

const keyIdOf = (params: Record<string, string>) => wellFormedIdOf(params.keyId, "API key");

/** A project's API keys: list, create (the key is shown once, in the reply), revoke after a confirmation page. */
export function registerKeyPages(router: Router, dashboard: DashboardController): void {
  const { db, verifier } = dashboard.services;

  router.on(
    "GET",
    "/dashboard/projects/:projectId/keys",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r);
      const keys = await listApiKeys(db, project.id);
      const grants = await listGrants(db, project.id);
      const body = keysBody({ session: r.session, project, access, keys, mcpUrl: `${r.origin}${MCP_PATH}`, grants: grantsSection(r.session, project, access, grants) });
      return htmlReply(200, layout({ title: "API keys", session: r.session, project: { project, access, tab: "keys" }, notice: noticeOf(r.ctx.url), body }));
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/keys",
    dashboard.action(async (r, form) => {
      const { project, access } = await dashboard.project(r, "admin");
      const scopes = KEY_SCOPES.filter((scope) => form[scopeField(scope)] === "on");
      const { name, scopes: granted } = parseFields(createKeySchema, { name: form.name?.trim() ? form.name : undefined, scopes });
      const created = await createApiKey(db, project.id, name ?? null, granted);
      const keys = await listApiKeys(db, project.id);
      const grants = await listGrants(db, project.id);
      const body = keysBody({ session: r.session, project, access, keys, created, mcpUrl: `${r.origin}${MCP_PATH}`, grants: grantsSection(r.session, project, access, grants) });
      return htmlReply(201, layout({ title: "API keys", session: r.session, project: { project, access, tab: "keys" }, body }));
    }),
  );

  router.on(
    "GET",
    "/dashboard/projects/:projectId/keys/:keyId/revoke",
    dashboard.page(async (r) => {
      const { project, access } = await dashboard.project(r, "admin");
      const keyId = keyIdOf(r.ctx.params);
      const key = (await listApiKeys(db, project.id)).find((k) => k.id === keyId && !k.revokedAt);
      if (!key) throw new NotFoundError("API key", "API key not found, or already revoked");
      return htmlReply(200, layout({ title: "Revoke API key", session: r.session, project: { project, access, tab: "keys" }, body: revokeConfirmBody(r.session, project, key) }));
    }),
  );

  router.on(
    "POST",
    "/dashboard/projects/:projectId/keys/:keyId/revoke",
    dashboard.action(async (r) => {
      const { project } = await dashboard.project(r, "admin");
      const revoked = await revokeApiKey(db, project.id, keyIdOf(r.ctx.params));
      // The verifier may remember the key as valid; its clients must get 401 from their next request.
      verifier.forget(revoked.id);
      return redirect(`${projectPath(project.id, "keys")}?notice=key-revoked`);
    }),
  );
}
